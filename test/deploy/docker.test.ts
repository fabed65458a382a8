/**
 * What an operator deploys: the Dockerfile and docker-compose.yml follow the stated rules, and every file they
 * run is one the build produces. (No Docker engine runs here, so this reads the files as Docker would.)
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../../server/config';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
  volumes?: string[];
}

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('builds in one stage and runs a slim runtime stage on Node 20 as a non-root user', () => {
    expect(stages).toHaveLength(2);
    for (const stage of stages) expect(stage).toMatch(/^node:20-bookworm-slim AS (build|runtime)/);
    const runtime = stages[1]!;
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).not.toMatch(/npm (ci|install)/);
    expect(runtime).toMatch(/NODE_ENV=production/);
  });

  it('health-checks /healthz and hands SIGTERM to node itself (exec form, no shell)', () => {
    const runtime = stages[1]!;
    expect(runtime).toMatch(/HEALTHCHECK[\s\S]*\/healthz/);
    expect(runtime).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
    expect(runtime).toMatch(/^CMD \["node", "dist\/server\/main.cjs"\]$/m);
  });

  it('copies only build outputs that exist after `npm run build`', () => {
    const copied = [...stages[1]!.matchAll(/COPY --from=build \S+ \/app\/(\S+)/g)].map((match) => match[1]!);
    expect(copied.sort()).toEqual(['dist', 'node_modules', 'package.json', 'public']);
    for (const file of ['dist/server/main.cjs', 'dist/reference-api/main.cjs', 'dist/client/manifest.json', 'public/favicon.svg']) {
      expect([file, existsSync(path.join(ROOT, file))]).toEqual([file, true]);
    }
  });
});

describe('docker-compose.yml', () => {
  // YAML merge keys (<<) are how compose files share a service definition; compose resolves them, so do we.
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
  const { services } = compose;

  it('runs two portals, Redis, the reference content API and a load balancer', () => {
    expect(Object.keys(services).sort()).toEqual(['lb', 'portal-1', 'portal-2', 'redis', 'upstream']);
    expect(services.upstream!.command).toEqual(['node', 'dist/reference-api/main.cjs']);
    expect(existsSync(path.join(ROOT, 'dist/reference-api/main.cjs'))).toBe(true);
  });

  it('gives both portals a configuration the server accepts, pointing at Redis and the content API', () => {
    for (const name of ['portal-1', 'portal-2']) {
      const env = services[name]!.environment!;
      expect(env).toMatchObject({ REDIS_URL: 'redis://redis:6379/0', UPSTREAM_URL: 'http://upstream:3100' });
      expect(() => loadConfig(env)).not.toThrow();
      expect(services[name]!.depends_on).toMatchObject({ redis: { condition: 'service_healthy' }, upstream: { condition: 'service_healthy' } });
    }
  });

  it('puts nginx in front of both portals without buffering the stream', () => {
    const conf = read('deploy/nginx.conf');
    expect(services.lb!.volumes).toContain('./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro');
    expect(conf).toMatch(/server portal-1:3000/);
    expect(conf).toMatch(/server portal-2:3000/);
    expect(conf).toMatch(/proxy_buffering off;/);
  });
});
