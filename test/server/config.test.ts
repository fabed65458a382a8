import { ConfigError, contentSourceOf, loadConfig, misspeltVariables } from '../../server/platform/config';

describe('loadConfig', () => {
  it('has working defaults: port 3000, no Redis, no upstream (in-process reference API)', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, UPSTREAM_TIMEOUT_MS: 3000, CACHE_PREFIX: 'portal' });
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.UPSTREAM_URL).toBeUndefined();
  });

  it('reads valid values', () => {
    const config = loadConfig({ PORT: '8080', REDIS_URL: 'redis://10.0.0.5:6380/2', UPSTREAM_URL: 'https://cms.example.cn' });
    expect(config).toMatchObject({ PORT: 8080, REDIS_URL: 'redis://10.0.0.5:6380/2', UPSTREAM_URL: 'https://cms.example.cn' });
  });

  it('bounds upstream answers at 2 MiB by default, and takes 64 KiB–64 MiB', () => {
    expect(loadConfig({}).UPSTREAM_MAX_BODY_BYTES).toBe(2 * 1024 * 1024);
    expect(loadConfig({ UPSTREAM_MAX_BODY_BYTES: '65536' }).UPSTREAM_MAX_BODY_BYTES).toBe(65_536);
    for (const bad of ['1000', '2MB', '-1', '1.5', String(128 * 1024 * 1024)]) {
      expect(() => loadConfig({ UPSTREAM_MAX_BODY_BYTES: bad })).toThrow(/UPSTREAM_MAX_BODY_BYTES=/);
    }
  });

  it('names every bad variable in one error, one line each', () => {
    let caught: unknown;
    try {
      loadConfig({ PORT: 'eighty', REDIS_URL: 'http://redis', UPSTREAM_URL: 'not a url', CACHE_PREFIX: 'a:b' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems).toHaveLength(4);
    expect(problems.find((line) => line.startsWith('PORT="eighty"'))).toBeDefined();
    expect(problems.find((line) => line.startsWith('REDIS_URL="http://redis"'))).toMatch(/redis:/);
    expect(problems.find((line) => line.startsWith('UPSTREAM_URL='))).toMatch(/http:/);
    expect(problems.find((line) => line.startsWith('CACHE_PREFIX='))).toBeDefined();
  });

  it('takes a Sentinel set or a cluster in REDIS_URL, and says in one line what is wrong with a bad one', () => {
    expect(loadConfig({ REDIS_URL: 'redis-sentinel://10.0.0.1:26379,10.0.0.2:26379/mymaster' }).REDIS_URL).toBe(
      'redis-sentinel://10.0.0.1:26379,10.0.0.2:26379/mymaster',
    );
    expect(loadConfig({ REDIS_URL: 'redis-cluster://10.0.0.1:7000,10.0.0.2:7001' }).REDIS_URL).toBe('redis-cluster://10.0.0.1:7000,10.0.0.2:7001');
    let caught: unknown;
    try {
      loadConfig({ REDIS_URL: 'redis-sentinel://:hunter2@10.0.0.1:26379' });
    } catch (error) {
      caught = error;
    }
    // The line shows the value without its password.
    expect((caught as ConfigError).problems).toEqual([
      'REDIS_URL="redis-sentinel://:***@10.0.0.1:26379": redis-sentinel:// needs the master name as its path (redis-sentinel://host:26379/mymaster)',
    ]);
    expect(() => loadConfig({ REDIS_URL: 'redis-cluster://10.0.0.1:7000/1' })).toThrow(
      /REDIS_URL="redis-cluster:\/\/10.0.0.1:7000\/1": redis-cluster:\/\/ takes no path/,
    );
  });

  it('allows L1_CACHE_MAX_MB=0 (no in-process tier) only in front of Redis', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', L1_CACHE_MAX_MB: '0' }).L1_CACHE_MAX_MB).toBe(0);
    expect(() => loadConfig({ L1_CACHE_MAX_MB: '0' })).toThrow(/L1_CACHE_MAX_MB="0": must be at least 1 without REDIS_URL/);
    expect(() => loadConfig({ L1_CACHE_MAX_MB: '-1' })).toThrow(ConfigError);
  });

  it('validates the sign-in settings', () => {
    const config = loadConfig({ WECHAT_APP_ID: 'wx0123abcd', LOGIN_CALLBACK_ORIGIN: 'https://www.qnnews.cn' });
    expect(config).toMatchObject({ WECHAT_APP_ID: 'wx0123abcd', LOGIN_CALLBACK_ORIGIN: 'https://www.qnnews.cn', SESSION_TTL_HOURS: 168 });
    expect(() => loadConfig({ WECHAT_APP_ID: 'wx 1' })).toThrow(/WECHAT_APP_ID/);
    expect(() => loadConfig({ WECHAT_QRCONNECT_URL: 'ftp://x' })).toThrow(/WECHAT_QRCONNECT_URL/);
    expect(() => loadConfig({ LOGIN_CALLBACK_ORIGIN: 'https://www.qnnews.cn/login' })).toThrow(
      /LOGIN_CALLBACK_ORIGIN="https:\/\/www.qnnews.cn\/login": must be an origin/,
    );
    expect(() => loadConfig({ SESSION_TTL_HOURS: '0' })).toThrow(/SESSION_TTL_HOURS/);
  });

  it('validates the visit statistics ids (site domains only) and script template', () => {
    const config = loadConfig({ VISIT_STATS_IDS: 'www.qnnews.cn=abc123' });
    expect(config.VISIT_STATS_IDS.get('www.qnnews.cn')).toBe('abc123');
    expect(config.VISIT_STATS_SCRIPT_URL).toBe('https://hm.baidu.com/hm.js?{id}');
    expect(() => loadConfig({ VISIT_STATS_IDS: 'evil.example=abc' })).toThrow(
      /VISIT_STATS_IDS="evil.example=abc": evil.example is not one of the portal's site domains/,
    );
    expect(() => loadConfig({ VISIT_STATS_IDS: 'www.qnnews.cn' })).toThrow(/is not host=id/);
    expect(() => loadConfig({ VISIT_STATS_SCRIPT_URL: 'https://hm.baidu.com/hm.js' })).toThrow(/VISIT_STATS_SCRIPT_URL.*\{id\}/);
  });

  it('refuses an INTERNAL_PORT that is PORT (the second listen would fail as "port in use", naming the wrong remedy)', () => {
    expect(() => loadConfig({ PORT: '3000', INTERNAL_PORT: '3000' })).toThrow(/INTERNAL_PORT="3000": the same as PORT/);
    expect(loadConfig({ PORT: '3000', INTERNAL_PORT: '9100' }).INTERNAL_PORT).toBe(9100);
  });

  it('takes edge caches to purge as origins, only with their token, which no error shows', () => {
    expect(loadConfig({}).EDGE_PURGE_URLS).toEqual([]);
    // docker-compose.yml passes both through as empty strings when the edge is not used.
    expect(loadConfig({ EDGE_PURGE_URLS: '', EDGE_PURGE_TOKEN: '' })).toMatchObject({ EDGE_PURGE_URLS: [], EDGE_PURGE_TOKEN: undefined });
    const token = 'a-purge-token-of-the-edges';
    const config = loadConfig({ EDGE_PURGE_URLS: 'http://varnish-1:6081, http://10.0.0.7:6081/', EDGE_PURGE_TOKEN: token });
    // Read as origins: a trailing slash is dropped.
    expect(config).toMatchObject({ EDGE_PURGE_URLS: ['http://varnish-1:6081', 'http://10.0.0.7:6081'], EDGE_PURGE_TOKEN: token, EDGE_PURGE_TIMEOUT_MS: 2000 });
    expect(() => loadConfig({ EDGE_PURGE_URLS: 'http://varnish:6081' })).toThrow(/EDGE_PURGE_URLS: needs EDGE_PURGE_TOKEN/);
    for (const bad of ['varnish:6081', 'http://varnish:6081/purge', 'ftp://varnish']) {
      expect(() => loadConfig({ EDGE_PURGE_URLS: bad, EDGE_PURGE_TOKEN: token })).toThrow(/EDGE_PURGE_URLS=.*origins/);
    }
    const short = 'short-secret';
    expect(() => loadConfig({ EDGE_PURGE_URLS: 'http://varnish:6081', EDGE_PURGE_TOKEN: short })).toThrow(/EDGE_PURGE_TOKEN="\(hidden\)": at least 16/);
    expect(() => loadConfig({ EDGE_PURGE_TOKEN: short })).not.toThrow(new RegExp(short));
  });

  it('resizes pictures with the embedded resizer by default, or a CDN whose template is checked at start', () => {
    expect(loadConfig({})).toMatchObject({ IMAGE_RESIZER: 'embedded', IMAGE_ALLOW_PRIVATE_SOURCES: false, IMAGE_SOURCE_MAX_PIXELS: 40_000_000 });
    const oss = '{src}?x-oss-process=image/resize,w_{width}/format,{format}';
    expect(loadConfig({ IMAGE_RESIZER: 'cdn', IMAGE_CDN_TEMPLATE: oss, MEDIA_ORIGINS: 'https://img.example.cn' })).toMatchObject({
      IMAGE_CDN_TEMPLATE: oss,
      IMAGE_CDN_FORMAT: 'webp',
    });
    expect(() => loadConfig({ IMAGE_RESIZER: 'cdn', MEDIA_ORIGINS: 'https://img.example.cn' })).toThrow(/IMAGE_RESIZER="cdn": needs IMAGE_CDN_TEMPLATE/);
    expect(() => loadConfig({ IMAGE_RESIZER: 'cdn', IMAGE_CDN_TEMPLATE: oss })).toThrow(/needs MEDIA_ORIGINS/);
    expect(() => loadConfig({ IMAGE_CDN_TEMPLATE: oss })).toThrow(/IMAGE_CDN_TEMPLATE: set with IMAGE_RESIZER="embedded"/);
    for (const bad of ['{src}?w=480', 'https://cdn.example.cn/{width}/a.jpg', 'ftp://cdn/{src}/{width}', '{src}?w={width}&h={height}']) {
      expect(() => loadConfig({ IMAGE_RESIZER: 'cdn', IMAGE_CDN_TEMPLATE: bad, MEDIA_ORIGINS: 'https://img.example.cn' })).toThrow(
        /IMAGE_CDN_TEMPLATE=.*must contain \{src\} and \{width\}/,
      );
    }
    expect(() => loadConfig({ IMAGE_RESIZER: 'sharp' })).toThrow(/IMAGE_RESIZER="sharp"/);
    expect(loadConfig({ IMAGE_ALLOW_PRIVATE_SOURCES: '1' }).IMAGE_ALLOW_PRIVATE_SOURCES).toBe(true);
  });

  it('treats an empty optional URL as unset', () => {
    expect(loadConfig({ REDIS_URL: '' }).REDIS_URL).toBeUndefined();
  });
});

describe('contentSourceOf', () => {
  it('reads the content API when UPSTREAM_URL is set', () => {
    expect(contentSourceOf(loadConfig({ UPSTREAM_URL: 'https://cms.example.cn' }))).toEqual({ kind: 'upstream', url: 'https://cms.example.cn' });
  });

  it('runs the reference dataset only when asked for by name', () => {
    expect(contentSourceOf(loadConfig({ REFERENCE_API: 'in-process' }))).toEqual({ kind: 'reference' });
    for (const env of [{}, { NODE_ENV: 'production' }, { NODE_ENV: 'development' }, { REFERENCE_API: '' }]) {
      expect(() => contentSourceOf(loadConfig(env))).toThrow(/UPSTREAM_URL is not set/);
    }
    expect(() => loadConfig({ REFERENCE_API: 'yes' })).toThrow(/REFERENCE_API="yes"/);
  });
});

describe('misspeltVariables', () => {
  it('names variables one or two edits (or a case) away from a setting, with the setting meant', () => {
    const env = {
      REDIS_ULR: 'x',
      UPSTREAM_URl: 'x',
      upstream_url: 'x',
      CACHE_PERFIX: 'x',
      L1_CACHE_MAX_MBS: 'x',
      SHUTDOWN_DELAY: 'x',
      PORTS: 'x',
      INTERNAL_TOKNE: 'x',
    };
    expect(Object.fromEntries(misspeltVariables(env).map(({ name, meant }) => [name, meant]))).toEqual({
      REDIS_ULR: 'REDIS_URL',
      UPSTREAM_URl: 'UPSTREAM_URL',
      upstream_url: 'UPSTREAM_URL',
      CACHE_PERFIX: 'CACHE_PREFIX',
      L1_CACHE_MAX_MBS: 'L1_CACHE_MAX_MB',
      PORTS: 'PORT',
      INTERNAL_TOKNE: 'INTERNAL_TOKEN',
    });
  });

  it('leaves settings spelt right and the ordinary environment alone', () => {
    const env = {
      REDIS_URL: 'x',
      PORT: '1',
      HOST: 'x',
      HOME: '/root',
      PATH: '/bin',
      PWD: '/',
      USER: 'node',
      SHELL: '/bin/sh',
      TERM: 'xterm',
      LANG: 'C',
      HOSTNAME: 'pod-1',
      NODE_VERSION: '22',
      YARN_VERSION: '1',
      KUBERNETES_PORT: 'tcp://10.0.0.1:443',
      REDIS_PORT: '6379',
      NODE_ENV: 'production',
      CI: 'true',
    };
    expect(misspeltVariables(env)).toEqual([]);
  });
});
