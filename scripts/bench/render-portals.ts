/**
 * Portal processes for measuring render cost outside the bench (profile-render.ts, compare-render.ts): a bundle
 * started with its own prefix and a signed-in reader's session, the article pages a miss load walks, and a stop
 * that waits for the process and removes the prefix's keys.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../../server/redis/client';
import { scanAll, unlinkAll } from '../../server/redis/commands';
import { RedisSecretStore } from '../../server/auth/secret-store';
import { Sessions } from '../../server/auth/sessions';
import { HOME_CATID } from '../../shared/constants';
import { freePort } from '../free-port';

export const DETAIL = '/detail/2728/33727';

/**
 * PORTAL_A and PORTAL_B: the main.cjs of each of the two bundles a comparison runs side by side; NODE_A and NODE_B:
 * the node binary each runs on (this process's when unset), so one bundle can be compared on two Nodes.
 */
export function bundlesToCompare(): { mainA: string; mainB: string; nodeA: string; nodeB: string } {
  const mainA = process.env.PORTAL_A;
  const mainB = process.env.PORTAL_B;
  if (!mainA || !mainB) throw new Error('set PORTAL_A and PORTAL_B to the main.cjs of each bundle');
  return { mainA, mainB, nodeA: process.env.NODE_A || process.execPath, nodeB: process.env.NODE_B || process.execPath };
}

export interface PortalUnderTest {
  url: string;
  child: ChildProcess;
  /** The signed-in reader's cookie header: every page is rendered for them (PASS). */
  cookie: Record<string, string>;
  prefix: string;
}

/** `main` (a dist/server/main.cjs) on `node` with `nodeArgs` (--cpu-prof, …), once it answers /healthz. */
export async function startPortalUnderTest(
  main: string,
  services: { upstreamUrl: string; redisUrl: string },
  client: RedisClient,
  nodeArgs: string[] = [],
  node = process.execPath,
): Promise<PortalUnderTest> {
  const prefix = `render${randomBytes(4).toString('hex')}`;
  const port = await freePort();
  const env = {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    CACHE_PREFIX: prefix,
    UPSTREAM_URL: services.upstreamUrl,
    REDIS_URL: services.redisUrl,
  };
  const child = spawn(node, [...nodeArgs, main], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (!(await answers(`${url}/healthz`))) {
    if (child.exitCode !== null) throw new Error(`${main} exited with code ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${main} did not answer within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const sessions = new Sessions(new RedisSecretStore(client, `${prefix}:session`), new RedisSecretStore(client, `${prefix}:login`), 3600);
  const session = await sessions.create({ user_id: 1, nickname: '压测读者', avatar: '' }, 'bench-token');
  return { url, child, cookie: { cookie: `portal_session=${session}` }, prefix };
}

function answers(url: string): Promise<boolean> {
  return fetch(url).then(
    (res) => res.arrayBuffer().then(() => res.ok),
    () => false,
  );
}

/** SIGTERM to the portal (by its PID), waits for it to exit (it writes its CPU profile then), removes its keys. */
export async function stopPortalUnderTest(portal: PortalUnderTest, client: RedisClient): Promise<void> {
  if (portal.child.exitCode === null && portal.child.signalCode === null) {
    const exited = new Promise((resolve) => portal.child.once('exit', resolve));
    portal.child.kill('SIGTERM');
    await exited;
  }
  await unlinkAll(client, await scanAll(client, `${portal.prefix}:*`));
}

/** Fetches each path once as the signed-in reader: its data is cached, no page is stored (each must be a PASS). */
export async function warm(portal: PortalUnderTest, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const res = await fetch(portal.url + path, { headers: portal.cookie });
    await res.arrayBuffer();
    if (res.headers.get('x-cache') !== 'PASS') throw new Error(`${path} was not rendered for the signed-in reader (X-Cache ${res.headers.get('x-cache')})`);
  }
}

/** Article pages of the home categories (as the bench's miss row), `DETAIL` left out. */
export async function articlePaths(upstreamUrl: string, count: number): Promise<string[]> {
  const post = async <T>(apiPath: string, body?: unknown): Promise<T> => {
    const init = body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {};
    return ((await (await fetch(upstreamUrl + apiPath, init)).json()) as { data: T }).data;
  };
  const { children } = await post<{ children: Array<{ catid: number }> }>('/mobile/index/category_index', { catid: HOME_CATID });
  const paths: string[] = [];
  for (let page = 1; page <= 20 && paths.length < count; page++) {
    for (const { catid } of children) {
      const list = await post<{ lists: Array<{ catid: number; id: number }> } | null>(`/list/${catid}/${page}.html?pagesize=20`);
      for (const item of list?.lists ?? []) paths.push(`/detail/${item.catid}/${item.id}`);
    }
  }
  return [...new Set(paths)].filter((path) => path !== DETAIL).slice(0, count);
}
