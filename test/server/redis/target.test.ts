/** REDIS_URL forms: one server, a Sentinel set, a cluster; and the one-line reasons a URL is refused. */
import { parseRedisTarget, redactRedisUrl, RedisUrlError } from '../../../server/platform/redis-target';

function refusal(url: string): string {
  try {
    parseRedisTarget(url);
  } catch (error) {
    if (error instanceof RedisUrlError) return error.message;
    throw error;
  }
  throw new Error(`${url} was accepted`);
}

describe('parseRedisTarget', () => {
  it('keeps redis:// and rediss:// URLs as they are (ioredis reads them)', () => {
    expect(parseRedisTarget('redis://10.0.0.5:6380/2')).toEqual({ mode: 'standalone', url: 'redis://10.0.0.5:6380/2' });
    expect(parseRedisTarget('rediss://:pw@cache.example.cn')).toEqual({ mode: 'standalone', url: 'rediss://:pw@cache.example.cn' });
  });

  it('reads a Sentinel set: hosts (default port 26379), master name, database, credentials', () => {
    expect(parseRedisTarget('redis-sentinel://10.0.0.1:26380,10.0.0.2,sentinel-3.internal:26379/mymaster/3')).toEqual({
      mode: 'sentinel',
      sentinels: [
        { host: '10.0.0.1', port: 26380 },
        { host: '10.0.0.2', port: 26379 },
        { host: 'sentinel-3.internal', port: 26379 },
      ],
      masterName: 'mymaster',
      db: 3,
    });
    expect(parseRedisTarget('redis-sentinel://portal:s%40cret@[::1]:26379/main')).toEqual({
      mode: 'sentinel',
      sentinels: [{ host: '::1', port: 26379 }],
      masterName: 'main',
      db: 0,
      username: 'portal',
      password: 's@cret',
    });
  });

  it('reads cluster seed nodes (default port 6379) and a password alone', () => {
    expect(parseRedisTarget('redis-cluster://:pw@10.0.0.1:7000,10.0.0.2:7001,10.0.0.3')).toEqual({
      mode: 'cluster',
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '10.0.0.3', port: 6379 },
      ],
      password: 'pw',
    });
    expect(parseRedisTarget('REDIS-CLUSTER://127.0.0.1:7000/')).toMatchObject({ mode: 'cluster' });
  });

  it('says what is wrong, in one line', () => {
    expect(refusal('http://redis')).toMatch(/^must be one of redis:\/\/.*redis-sentinel:\/\/.*redis-cluster:\/\//);
    expect(refusal('redis-sentinel://127.0.0.1:26379')).toBe('redis-sentinel:// needs the master name as its path (redis-sentinel://host:26379/mymaster)');
    expect(refusal('redis-sentinel://127.0.0.1/mymaster/16')).toBe('database "16" is not 0–15');
    expect(refusal('redis-sentinel://127.0.0.1/my*master')).toMatch(/^master name "my\*master"/);
    expect(refusal('redis-sentinel://127.0.0.1/m/0/extra')).toMatch(/path is \/master or \/master\/db/);
    expect(refusal('redis-cluster://127.0.0.1:7000/2')).toBe('redis-cluster:// takes no path (a cluster has only database 0)');
    expect(refusal('redis-cluster://127.0.0.1:7000,,127.0.0.1:7001')).toBe('"" is not host or host:port');
    expect(refusal('redis-cluster://127.0.0.1:99999')).toBe('port 99999 of "127.0.0.1:99999" is not 1–65535');
    expect(refusal('redis-cluster://host:70a0')).toBe('"host:70a0" is not host or host:port');
    expect(refusal('redis-cluster://')).toBe('names no host');
    expect(refusal('redis-cluster://127.0.0.1:7000?tls=1')).toBe('takes no query string or fragment');
    expect(refusal('redis://a:6379,b:6379')).toMatch(/several hosts: use redis-sentinel:\/\/ or redis-cluster:\/\//);
    expect(refusal('redis://127.0.0.1/x')).toBe('database "x" is not 0–15');
    expect(refusal('redis-cluster://us%er:pw@h:1')).toBe('has a badly percent-encoded user or password');
  });

  it('hides passwords when a URL is shown', () => {
    expect(redactRedisUrl('redis-sentinel://portal:secret@h:26379/m')).toBe('redis-sentinel://portal:***@h:26379/m');
    expect(redactRedisUrl('redis://:secret@h')).toBe('redis://:***@h');
    expect(redactRedisUrl('redis://h:6379/0')).toBe('redis://h:6379/0');
  });
});
