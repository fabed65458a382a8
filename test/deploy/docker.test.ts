/**
 * What an operator deploys: the Dockerfile and docker-compose.yml follow the stated rules, and every file they
 * run is one the build produces. No Docker engine runs here, so the Dockerfile is read as Docker would read it;
 * the compose file is checked by Compose itself (`config` needs no engine).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../../server/platform/config';
import { composeCommand, describeWithCompose } from '../support/requirements';
import { VARNISHD_HEADER_LIMITS } from '../support/varnish';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
  restart?: string;
  volumes?: string[];
  profiles?: string[];
  ports?: string[];
}

/** The three secrets compose requires (`${NAME:?…}`), as an operator sets them (docs/operations.md). */
const SECRETS = {
  REDIS_PASSWORD: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718',
  INTERNAL_TOKEN: '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a6978',
  PURGE_SECRET: '5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5',
};

/** The edge's settings as docs/operations.md "Edge cache" has them in .env. */
const EDGE = { COMPOSE_PROFILES: 'edge', EDGE_PURGE_URLS: 'http://varnish:6081', EDGE_PURGE_TOKEN: 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00' };

/** The environment as Compose sees it with only SECRETS set: `${NAME:-default}` is the default, `${NAME:?…}` the secret. */
function withComposeDefaults(env: Record<string, string>): Record<string, string> {
  const secret = (name: string) => SECRETS[name as keyof typeof SECRETS] ?? `(${name} unset)`;
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => [
      name,
      value.replace(/\$\{\w+:-([^}]*)\}/g, '$1').replace(/\$\{(\w+):\?[^}]*\}/g, (_match, secretName: string) => secret(secretName)),
    ]),
  );
}

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('builds in a build stage and runs a slim runtime stage on Node 22 LTS as a non-root user', () => {
    expect(stages).toHaveLength(2);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:22-bookworm-slim(@sha256:[0-9a-f]{64})?$/m);
    expect(stages[0]).toMatch(/^\$\{NODE_IMAGE\} AS build/);
    expect(stages[1]).toMatch(/^\$\{NODE_IMAGE\} AS runtime/);
    const runtime = stages[1]!;
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).not.toMatch(/npm (ci|install)/);
    expect(runtime).toMatch(/NODE_ENV=production/);
    expect(stages[0]).toMatch(/npm prune --omit=dev --omit=optional/);
  });

  it('leaves the runtime files root’s: the runtime user can read its code, not rewrite it', () => {
    const runtime = stages[1]!;
    const copies = runtime.split('\n').filter((line) => line.startsWith('COPY'));
    expect(copies.length).toBeGreaterThan(0);
    for (const line of copies) expect(line).not.toMatch(/--chown|--chmod/);
    // Switching to the runtime user comes after the files are in place, and nothing is chowned by a RUN either.
    expect(runtime.indexOf('USER node')).toBeGreaterThan(runtime.lastIndexOf('COPY '));
    expect(runtime).not.toMatch(/chown|chmod/);
  });

  it('health-checks /healthz and hands SIGTERM to node itself (exec form, no shell)', () => {
    const runtime = stages[1]!;
    expect(runtime).toMatch(/HEALTHCHECK[\s\S]*\/healthz/);
    expect(runtime).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
    expect(runtime).toMatch(/^CMD \["node", "dist\/server\/main.cjs"\]$/m);
  });

  it('copies only build outputs that exist after `npm run build`', () => {
    const copied = [...stages[1]!.matchAll(/COPY --from=build (?:--\S+ )*\/app\/(\S+)/g)].map((match) => match[1]!);
    expect(copied.sort()).toEqual(['dist', 'node_modules', 'package.json', 'public']);
    for (const file of ['dist/server/main.cjs', 'dist/reference-api/main.cjs', 'dist/client/manifest.json', 'public/favicon.svg']) {
      expect([file, existsSync(path.join(ROOT, file))]).toEqual([file, true]);
    }
  });
});

describe('the image’s runtime packages', () => {
  const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const builtins = new Set(builtinModules);

  it('leaves build-time and browser-only packages out of the production dependencies', () => {
    for (const name of ['esbuild', 'hls.js', 'swiper']) {
      expect([name, name in pkg.dependencies]).toEqual([name, false]);
      expect([name, name in pkg.devDependencies]).toEqual([name, true]);
    }
  });

  it.each(['dist/server/main.cjs', 'dist/reference-api/main.cjs'])('has every package %s loads', (bundle) => {
    // A comment line (esbuild's notes, a licence) may name a require; a comment loads nothing.
    const code = read(bundle)
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('//'))
      .join('\n');
    const loaded = [...code.matchAll(/\brequire\("([^"]+)"\)|\bimport\("([^"]+)"\)/g)].map((match) => (match[1] ?? match[2])!);
    expect(loaded.length).toBeGreaterThan(0);
    const packageOf = (spec: string) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    const missing = loaded.filter((spec) => !spec.startsWith('node:') && !builtins.has(spec) && !(packageOf(spec) in pkg.dependencies));
    expect(missing).toEqual([]);
  });
});

describe('docker-compose.yml', () => {
  // YAML merge keys (<<) are how compose files share a service definition; compose resolves them, so do we.
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
  const { services } = compose;

  it('runs two portals, Redis, the reference content API and a load balancer, and the edge cache on request', () => {
    expect(Object.keys(services).sort()).toEqual(['lb', 'portal-1', 'portal-2', 'redis', 'redis-sessions', 'upstream', 'varnish']);
    const optional = Object.entries(services).filter(([, service]) => service.profiles !== undefined);
    expect(optional).toEqual([['varnish', expect.objectContaining({ profiles: ['edge'] })]]);
    expect(services.upstream!.command).toEqual(['node', 'dist/reference-api/main.cjs']);
    expect(existsSync(path.join(ROOT, 'dist/reference-api/main.cjs'))).toBe(true);
  });

  it('gives both portals a configuration the server accepts, pointing at Redis and the content API', () => {
    for (const name of ['portal-1', 'portal-2']) {
      const env = services[name]!.environment!;
      expect(withComposeDefaults(env)).toMatchObject({
        REDIS_URL: `redis://:${SECRETS.REDIS_PASSWORD}@redis:6379/0`,
        SESSION_REDIS_URL: `redis://:${SECRETS.REDIS_PASSWORD}@redis-sessions:6379/0`,
        UPSTREAM_URL: 'http://upstream:3100',
        INTERNAL_TOKEN: SECRETS.INTERNAL_TOKEN,
        PURGE_SECRET: SECRETS.PURGE_SECRET,
      });
      // A purge made while Redis is away reaches every portal straight, each at its internal listener.
      const peers = new Set(loadConfig(withComposeDefaults(env)).PEER_URLS.map((url) => new URL(url).hostname));
      expect(peers).toEqual(new Set(['portal-1', 'portal-2']));
      // Required, with no default anyone could know: Compose refuses to start without them (below).
      expect(env.REDIS_URL).toMatch(/^redis:\/\/:\$\{REDIS_PASSWORD:\?[^}]+\}@redis:6379\/0$/);
      expect(env.INTERNAL_TOKEN).toMatch(/^\$\{INTERNAL_TOKEN:\?[^}]+\}$/);
      // The publish hook is on in every deployment of this file (docs/publish-hook.md).
      expect(env.PURGE_SECRET).toMatch(/^\$\{PURGE_SECRET:\?[^}]+\}$/);
      expect(loadConfig(withComposeDefaults(env))).toMatchObject({ PURGE_SECRET: SECRETS.PURGE_SECRET });
      // With the edge's purge settings given (docs/operations.md "Edge cache"), the portal accepts them too.
      const edge = { ...withComposeDefaults(env), EDGE_PURGE_URLS: 'http://varnish:6081', EDGE_PURGE_TOKEN: 'a-token-of-24-characters' };
      expect(loadConfig(edge)).toMatchObject({ EDGE_PURGE_URLS: ['http://varnish:6081'] });
      expect(env).toMatchObject({ EDGE_PURGE_URLS: '${EDGE_PURGE_URLS:-}', EDGE_PURGE_TOKEN: '${EDGE_PURGE_TOKEN:-}' });
      expect(services[name]!.depends_on).toMatchObject({
        redis: { condition: 'service_healthy' },
        'redis-sessions': { condition: 'service_healthy' },
        upstream: { condition: 'service_healthy' },
      });
      expect(services[name]!.healthcheck!.test.join(' ')).toMatch(/\/readyz/);
    }
  });

  it('builds the portal image once and runs it in every Node service', () => {
    const builders = Object.entries(services).filter(([, service]) => service.build !== undefined);
    expect(builders.map(([name]) => name)).toEqual(['upstream']);
    const image = services.upstream!.image;
    expect(image).toBeTruthy();
    for (const name of ['portal-1', 'portal-2']) expect([name, services[name]!.image]).toEqual([name, image]);
  });

  it('restarts every service, starts the balancer once both portals are healthy, pins image versions', () => {
    for (const [name, service] of Object.entries(services)) {
      expect([name, service.restart]).toEqual([name, 'unless-stopped']);
      // An exact version (x.y.z), optionally with a digest; never a floating major tag such as redis:7-alpine.
      if (name !== 'upstream' && !name.startsWith('portal'))
        expect([name, service.image]).toEqual([name, expect.stringMatching(/:\d+\.\d+\.\d+[\w.-]*(@sha256:[0-9a-f]{64})?$/)]);
    }
    expect(services.lb!.depends_on).toEqual({ 'portal-1': { condition: 'service_healthy' }, 'portal-2': { condition: 'service_healthy' } });
    // Releases with the fixes: Redis 7.4.6 (CVE-2025-21605, CVE-2025-49844: the portal needs EVAL), nginx 1.29.1.
    const version = (image: string) => (image.match(/:(\d+)\.(\d+)\.(\d+)/) ?? []).slice(1).map(Number);
    const atLeast = (have: number[], want: number[]) => have[0]! * 1e6 + have[1]! * 1e3 + have[2]! >= want[0]! * 1e6 + want[1]! * 1e3 + want[2]!;
    for (const name of ['redis', 'redis-sessions']) expect([name, atLeast(version(services[name]!.image!), [7, 4, 6])]).toEqual([name, true]);
    expect(atLeast(version(services.lb!.image!), [1, 29, 1])).toBe(true);
  });

  it('keeps sessions where nothing is evicted, and lets the cache evict only keys with an expiry', () => {
    const policy = (name: string) => {
      const command = services[name]!.command!;
      return command[command.indexOf('--maxmemory-policy') + 1];
    };
    expect(policy('redis')).toBe('volatile-lru');
    expect(policy('redis-sessions')).toBe('noeviction');
    // Both ask for the password the portals' URLs carry; redis-cli (the health check) authenticates with it.
    for (const name of ['redis', 'redis-sessions']) {
      const command = services[name]!.command!;
      expect(command[command.indexOf('--requirepass') + 1]).toMatch(/^\$\{REDIS_PASSWORD:\?[^}]+\}$/);
      expect(services[name]!.environment).toEqual({ REDISCLI_AUTH: command[command.indexOf('--requirepass') + 1] });
    }
    expect(services['redis-sessions']!.command).toEqual(expect.arrayContaining(['--appendonly', 'yes']));
  });

  it('runs the shipped VCL in an image with varnish-modules, in front of both portals, with the portals’ purge settings', () => {
    const varnish = services.varnish!;
    expect(varnish.volumes).toContain('./deploy/varnish/default.vcl:/etc/varnish/default.vcl:ro');
    // The official image carries varnish-modules (xkey) from 7.1 on.
    const [major, minor] = (varnish.image!.match(/^varnish:(\d+)\.(\d+)\./) ?? []).slice(1).map(Number);
    expect(major! > 7 || (major === 7 && minor! >= 1)).toBe(true);
    // The guard (below), then varnishd with exactly these arguments.
    const varnishd = varnish.command!.slice(varnish.command!.indexOf('varnishd'));
    expect(varnishd.slice(0, 7)).toEqual(['varnishd', '-F', '-f', '/etc/varnish/default.vcl', '-a', ':6081', '-s']);
    // The same header limits the edge suite runs varnishd with (test/support/varnish.ts).
    expect(varnishd.slice(8)).toEqual([...VARNISHD_HEADER_LIMITS]);
    // The same two variables the portals read, so one .env sets both sides.
    expect(varnish.environment).toEqual({ EDGE_PURGE_URLS: '${EDGE_PURGE_URLS:-}', EDGE_PURGE_TOKEN: '${EDGE_PURGE_TOKEN:-}' });
    for (const name of ['portal-1', 'portal-2']) expect(services[name]!.environment).toMatchObject(varnish.environment!);
    expect(varnish.depends_on).toEqual({ 'portal-1': { condition: 'service_healthy' }, 'portal-2': { condition: 'service_healthy' } });
    const vcl = read('deploy/varnish/default.vcl');
    expect(vcl).toMatch(/\.host = "portal-1"; \.port = "3000";/);
    expect(vcl).toMatch(/\.host = "portal-2"; \.port = "3000";/);
    expect(vcl).toMatch(/import xkey;/);
  });

  it('starts Varnish only when the portals purge it: the guard refuses without the settings, naming them', async () => {
    // The command as the container runs it (Compose turns `$$` into `$`), with a stand-in for varnishd.
    const command = services.varnish!.command!.map((arg) => arg.replace(/\$\$/g, '$'));
    const guard = command.slice(0, command.indexOf('varnishd'));
    expect(guard.slice(0, 2)).toEqual(['sh', '-c']);
    const run = (env: Record<string, string>) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile('sh', [...guard.slice(1), 'echo', 'varnishd', 'started'], { env: { PATH: process.env.PATH ?? '', ...env } }, (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
        });
      });
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ['nothing set (`--profile edge` alone)', {}, /EDGE_PURGE_URLS=http:\/\/varnish:6081/],
      ['the token without the portals’ URL', { EDGE_PURGE_TOKEN: EDGE.EDGE_PURGE_TOKEN }, /EDGE_PURGE_URLS/],
      ['URLs that name another edge', { EDGE_PURGE_URLS: 'http://varnish-2:6081', EDGE_PURGE_TOKEN: EDGE.EDGE_PURGE_TOKEN }, /EDGE_PURGE_URLS/],
      ['the URL without a token', { EDGE_PURGE_URLS: EDGE.EDGE_PURGE_URLS }, /EDGE_PURGE_TOKEN \(at least 16/],
      ['a token the portals refuse (too short)', { EDGE_PURGE_URLS: EDGE.EDGE_PURGE_URLS, EDGE_PURGE_TOKEN: 'short' }, /EDGE_PURGE_TOKEN/],
    ];
    for (const [label, env, message] of cases) {
      const result = await run(env);
      expect([label, result.code, result.stdout]).toEqual([label, 78, '']);
      expect(result.stderr).toMatch(message);
    }
    const ok = await run({ EDGE_PURGE_URLS: `http://other:6081,${EDGE.EDGE_PURGE_URLS}`, EDGE_PURGE_TOKEN: EDGE.EDGE_PURGE_TOKEN });
    expect(ok).toEqual({ code: 0, stdout: 'varnishd started\n', stderr: '' });
    // What the guard lets through, the portals accept as their edge settings.
    const portal = withComposeDefaults(services['portal-1']!.environment!);
    expect(loadConfig({ ...portal, EDGE_PURGE_URLS: EDGE.EDGE_PURGE_URLS, EDGE_PURGE_TOKEN: EDGE.EDGE_PURGE_TOKEN })).toMatchObject({
      EDGE_PURGE_URLS: ['http://varnish:6081'],
    });
  });

  it('puts nginx in front of both portals without buffering the stream', () => {
    const conf = read('deploy/nginx.conf');
    expect(services.lb!.volumes).toContain('./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro');
    expect(conf).toMatch(/server portal-1:3000/);
    expect(conf).toMatch(/server portal-2:3000/);
    expect(conf).toMatch(/proxy_buffering off;/);
  });
});

describeWithCompose()('Compose accepts docker-compose.yml', () => {
  const [program, ...leading] = composeCommand();
  const compose = (dir: string, ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(program, [...leading, '-f', 'docker-compose.yml', ...args], { cwd: dir, env: { ...process.env, ...SECRETS } }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      });
    });

  it('validates the file and resolves both portals with their environment', async () => {
    const result = await compose(ROOT, '--profile', 'edge', 'config');
    expect(result.stderr).not.toMatch(/error|invalid/i);
    expect(result.code).toBe(0);
    const resolved = parse(result.stdout) as { services: Record<string, Service> };
    expect(Object.keys(resolved.services).sort()).toEqual(['lb', 'portal-1', 'portal-2', 'redis', 'redis-sessions', 'upstream', 'varnish']);
    for (const name of ['portal-1', 'portal-2']) {
      expect(resolved.services[name]!.environment).toMatchObject({
        REDIS_URL: `redis://:${SECRETS.REDIS_PASSWORD}@redis:6379/0`,
        INTERNAL_TOKEN: SECRETS.INTERNAL_TOKEN,
        PURGE_SECRET: SECRETS.PURGE_SECRET,
      });
    }
  }, 60_000);

  it('refuses to resolve without each secret, naming the one missing', async () => {
    for (const missing of Object.keys(SECRETS)) {
      const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
        const env = { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !(name in SECRETS))), ...SECRETS };
        delete env[missing as keyof typeof SECRETS];
        execFile(program, [...leading, '-f', 'docker-compose.yml', 'config', '-q'], { cwd: ROOT, env }, (error, _stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr });
        });
      });
      expect([missing, result.code]).toEqual([missing, 1]);
      expect(result.stderr).toMatch(new RegExp(`set ${missing}`));
    }
  }, 120_000);

  it('turns the edge on from .env as documented: Varnish in, and the portals purge it with Varnish’s token', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'compose-edge-'));
    writeFileSync(path.join(dir, 'docker-compose.yml'), read('docker-compose.yml'));
    const dotenv = { ...SECRETS, ...EDGE };
    writeFileSync(
      path.join(dir, '.env'),
      Object.entries(dotenv)
        .map(([name, value]) => `${name}=${value}\n`)
        .join(''),
    );
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !(name in dotenv)));
      execFile(program, [...leading, '-f', 'docker-compose.yml', 'config'], { cwd: dir, env }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      });
    });
    expect(result.code).toBe(0);
    const resolved = parse(result.stdout) as { services: Record<string, Service> };
    expect(Object.keys(resolved.services)).toContain('varnish');
    const edgeSettings = { EDGE_PURGE_URLS: EDGE.EDGE_PURGE_URLS, EDGE_PURGE_TOKEN: EDGE.EDGE_PURGE_TOKEN };
    expect(resolved.services.varnish!.environment).toEqual(edgeSettings);
    for (const name of ['portal-1', 'portal-2']) expect([name, resolved.services[name]!.environment]).toEqual([name, expect.objectContaining(edgeSettings)]);
  }, 60_000);

  it('rejects a file with a misspelt option (so the check above can fail)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'compose-'));
    writeFileSync(path.join(dir, 'docker-compose.yml'), read('docker-compose.yml').replace(/^ {2}redis:\n/m, '  redis:\n    restrat: always\n'));
    const result = await compose(dir, 'config', '-q');
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/restrat/);
  }, 60_000);
});
