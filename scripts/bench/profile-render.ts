/**
 * Profiles render cost (not part of the bench; docs/benchmark.md): the reference API and one portal process from
 * the production bundle under `node --cpu-prof`, its data cache warmed, then signed-in `/home` and detail renders
 * (PROFILE_MODE=signed, PROFILE_SECONDS each; PROFILE_PATHS=/a,/b for other pages, one profile over them all) or
 * anonymous misses over PROFILE_PAGES article pages (PROFILE_MODE=miss). Prints the server CPU per page; the
 * profile is written to PROFILE_DIR when the portal exits. PROFILE_OFF=1 measures without the profiler;
 * PORTAL_MAIN picks another bundle.
 */
import path from 'node:path';
import { startReferenceApi } from '../reference-api/server';
import { createRedisClient } from '../../server/redis/client';
import { parseRedisTarget } from '../../server/platform/redis-target';
import { PROJECT_ROOT } from '../../server/render/assets';
import { loadFrom } from './processes';
import { articlePaths, DETAIL, startPortalUnderTest, stopPortalUnderTest, warm } from './render-portals';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const MODE = process.env.PROFILE_MODE === 'miss' ? 'miss' : 'signed';
const DIR = process.env.PROFILE_DIR ?? path.join(PROJECT_ROOT, 'dist/profiles');
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const PAGES = Number(process.env.PROFILE_PAGES ?? 300);
const SIGNED_PATHS = process.env.PROFILE_PATHS ? process.env.PROFILE_PATHS.split(',') : ['/home', DETAIL];

const perPage = (serverMicros: number, requests: number) => `${requests} pages, ${(serverMicros / requests / 1000).toFixed(2)} ms server CPU/page`;

async function main(): Promise<void> {
  const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
  const client = createRedisClient(parseRedisTarget(REDIS_URL), { role: 'cli' });
  const profiling = process.env.PROFILE_OFF ? [] : ['--cpu-prof', `--cpu-prof-dir=${DIR}`, '--cpu-prof-interval=200'];
  const main = process.env.PORTAL_MAIN ?? path.join(PROJECT_ROOT, 'dist/server/main.cjs');
  const portal = await startPortalUnderTest(main, { upstreamUrl: upstream.url, redisUrl: REDIS_URL }, client, profiling);
  try {
    await warm(portal, SIGNED_PATHS);
    if (MODE === 'signed') {
      for (const page of SIGNED_PATHS) {
        const load = await loadFrom({ url: portal.url + page, connections: 10, seconds: SECONDS, headers: portal.cookie }, portal.child.pid!);
        console.log(`${page} (signed-in): ${perPage(load.serverMicros, load.requests)} over ${load.seconds} s`);
      }
    } else {
      const paths = await articlePaths(upstream.url, PAGES);
      await warm(portal, paths);
      const load = await loadFrom({ url: portal.url, connections: 10, seconds: 0, paths }, portal.child.pid!);
      console.log(`anonymous misses: ${perPage(load.serverMicros, load.requests)} over the last ${load.seconds} s`);
    }
  } finally {
    await stopPortalUnderTest(portal, client);
    client.disconnect();
    await upstream.close();
  }
  if (profiling.length > 0) console.log(`profile in ${DIR}`);
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
