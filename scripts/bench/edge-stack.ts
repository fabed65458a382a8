/**
 * The portal as deployed, for the benchmarks that drive it whole (`npm run day`): the reference content API (in
 * this process, its control plane at hand), a redis-server of the run's own, portals from the production bundle
 * (dist/server/main.cjs) each in its own process, and varnishd with the shipped VCL in front of them (several,
 * behind nginx as the readers' balancer, when asked). The portals
 * are configured as a deployment would be: the publish hook on (PURGE_SECRET), the edge purged by them
 * (EDGE_PURGE_URLS, EDGE_PURGE_TOKEN), sign-in through the reference API's WeChat stand-in. Every process is
 * tracked by children.ts, so a failure anywhere stops them all.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { sign } from '../../server/cache/purge-request';
import { freePort } from '../free-port';
import { startReferenceApi, type RunningReferenceApi } from '../reference-api/server';
import { startBalancer, startPortalProcess, startRedisServer, type Running } from './processes';
import { MissingTool } from './children';
import { nginxMissing, redisServerMissing, varnishBinary, varnishMissing } from './requirements';
import { startVarnish, type TestVarnish } from './varnish';

export interface EdgeStackOptions {
  /** Portal instances behind the edge (default 2). */
  portals?: number;
  /** Varnish's cache size (default 1g: every page of the dataset fits, as on a real edge). */
  varnishStorage?: string;
  /**
   * Edges (varnishd with the shipped VCL, each purged by the portals; default 1). With more than one, readers
   * reach them through a balancer (processes.ts startBalancer), as through a CDN: one restarted is routed around.
   */
  edges?: number;
  /** More environment for every portal. */
  env?: Record<string, string>;
}

/** What a fault does to one part for a while (SIGSTOP, then SIGCONT): a stalled VM, a black-holed network. */
export type Freezable = { part: 'redis' } | { part: 'portal'; index: number };

export interface HookAnswer {
  status: number;
  body: string;
}

export interface EdgeStack {
  upstream: RunningReferenceApi;
  redis: Running;
  portals: Running[];
  /** The portals' CACHE_PREFIX: their keys in the run's Redis (for `portal-cache --prefix`). */
  cachePrefix: string;
  /** The first edge (with one edge, the readers' address). */
  varnish: TestVarnish;
  /** Every edge, in order. */
  varnishes: TestVarnish[];
  /** Where readers ask: the balancer in front of the edges, or the one edge. */
  edgeUrl: string;
  /** The WeChat app id the portals sign readers in with (the reference API's stand-in accepts any). */
  wechatAppId: string;
  /** The CMS's publish hook call (docs/publish-hook.md): `body` signed now, sent to one portal. */
  hook(body: object, portal?: number): Promise<HookAnswer>;
  /** Stops the run's Redis and starts it again on the same port, empty (no persistence, as a cache Redis runs). */
  restartRedis(): Promise<void>;
  /** Freezes a part (SIGSTOP) for `ms`, then lets it go on (SIGCONT): its connections stay open, nothing answers. */
  freeze(what: Freezable, ms: number): Promise<void>;
  /** Kills portal `index` (SIGKILL, a crash) and starts it again on the same address, with an empty L1. */
  restartPortal(index: number): Promise<void>;
  /** Stops edge `index` (default 0) and starts it again on the same port, its cache empty (a deploy or a crash). */
  restartEdge(index?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Throws with what to install when a binary the stack needs is missing (installing it first where it may). */
export async function checkEdgeStackRequirements(edges = 1): Promise<void> {
  const missing = [await varnishMissing(), await redisServerMissing(), edges > 1 ? await nginxMissing() : null].filter((why): why is string => why !== null);
  if (missing.length > 0) throw new MissingTool(`cannot start the stack: ${missing.join('; ')}`);
}

function post(url: string, headers: Record<string, string>, body: string): Promise<HookAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function startEdgeStack(options: EdgeStackOptions = {}): Promise<EdgeStack> {
  await checkEdgeStackRequirements(options.edges);
  const secret = `day-${randomBytes(24).toString('hex')}`;
  const edgeToken = `edge-${randomBytes(12).toString('hex')}`;
  const wechatAppId = 'wxbenchapp';
  const cachePrefix = `stack${randomBytes(3).toString('hex')}`;
  const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
  const started: Array<{ stop(): Promise<void> }> = [];
  let redis: Running | null = null;
  try {
    redis = await startRedisServer();
    const edgePorts = await Promise.all(Array.from({ length: options.edges ?? 1 }, () => freePort()));
    const env = {
      UPSTREAM_URL: upstream.url,
      REDIS_URL: redis.url,
      CACHE_PREFIX: cachePrefix,
      PURGE_SECRET: secret,
      EDGE_PURGE_URLS: edgePorts.map((port) => `http://127.0.0.1:${port}`).join(','),
      EDGE_PURGE_TOKEN: edgeToken,
      WECHAT_APP_ID: wechatAppId,
      WECHAT_QRCONNECT_URL: `${upstream.url}/__wechat/qrconnect`,
      ...options.env,
    };
    // Ports chosen first: each portal names every instance (PEER_URLS), as compose's file does, so a purge made
    // while Redis is away reaches them straight; a restarted portal comes back on its address.
    const ports = await Promise.all(Array.from({ length: options.portals ?? 2 }, () => freePort()));
    const portalEnv = { PEER_URLS: ports.map((port) => `http://127.0.0.1:${port}`).join(','), ...env };
    const portals: Running[] = [];
    const varnishes: Array<TestVarnish | null> = [];
    let balancer: Running | null = null;
    // Whatever runs now, restarts included: a fault may have replaced a portal or an edge since they started.
    started.push({
      stop: async () => {
        await balancer?.stop();
        for (const varnish of varnishes) await varnish?.stop();
        for (const portal of [...portals].reverse()) await portal.stop();
      },
    });
    for (const port of ports) portals.push(await startPortalProcess(portalEnv, [], undefined, port));
    const varnishOptions = (port: number) => ({
      backends: portals.map((portal) => new URL(portal.url).host),
      purgeToken: edgeToken,
      port,
      storage: options.varnishStorage ?? '1g',
      binary: varnishBinary(),
    });
    for (const port of edgePorts) varnishes.push(await startVarnish(varnishOptions(port)));
    const running = () => varnishes.filter((varnish): varnish is TestVarnish => varnish !== null);
    if (edgePorts.length > 1) balancer = await startBalancer(edgePorts.map((port) => `127.0.0.1:${port}`));
    const stack: EdgeStack = {
      upstream,
      redis,
      portals,
      cachePrefix,
      varnish: running()[0]!,
      varnishes: running(),
      edgeUrl: balancer?.url ?? running()[0]!.url,
      wechatAppId,
      hook: (body, portal = 0) => {
        const text = JSON.stringify(body);
        const at = Math.floor(Date.now() / 1000);
        const headers = { 'content-type': 'application/json', 'x-portal-signature': `t=${at},v1=${sign(secret, at, text)}` };
        return post(`${portals[portal % portals.length]!.url}/_internal/purge`, headers, text);
      },
      restartRedis: async () => {
        const port = Number(new URL(stack.redis.url).port);
        await stack.redis.stop();
        stack.redis = await startRedisServer(port);
      },
      freeze: async (what, ms) => {
        const pid = what.part === 'redis' ? stack.redis.pid : portals[what.index]!.pid;
        process.kill(pid, 'SIGSTOP');
        try {
          await new Promise((resolve) => setTimeout(resolve, ms));
        } finally {
          process.kill(pid, 'SIGCONT');
        }
      },
      restartPortal: async (index) => {
        await portals[index]!.stop('SIGKILL');
        portals[index] = await startPortalProcess(portalEnv, [], undefined, ports[index]);
      },
      restartEdge: async (index = 0) => {
        await varnishes[index]!.stop();
        varnishes[index] = null;
        varnishes[index] = await startVarnish(varnishOptions(edgePorts[index]!));
        stack.varnishes = running();
        stack.varnish = stack.varnishes[0]!;
      },
      stop: async () => {
        for (const running of started.reverse()) await running.stop();
        await stack.redis.stop();
        await upstream.close();
      },
    };
    return stack;
  } catch (error) {
    for (const running of started.reverse()) await running.stop();
    await redis?.stop();
    await upstream.close();
    throw error;
  }
}
