/**
 * What each compression level costs a stored page and saves on the wire: the portal's home and an article page
 * (rendered by a portal on the reference API, taken as stored), each compressed in a loop at gzip 6 and brotli
 * levels 4–9, CPU per compression and bytes. `node scripts/run-ts.mjs scripts/bench/compression-levels.ts`.
 * How the stored brotli level was chosen (server/cache/stored-page.ts, docs/benchmark.md "Storing a page: the seal and two compressions").
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { startReferenceApi } from '../reference-api/server';
import { loadConfig } from '../../server/platform/config';
import { listen } from '../../server/http-server';
import { createLogger } from '../../server/platform/logger';
import { createPortal } from '../../server/portal';
import { DETAIL } from './render-portals';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);

async function storedText(base: string, path: string): Promise<Buffer> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const response = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'identity', 'user-agent': 'Mozilla/5.0 Chrome/120' } });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.headers.get('x-cache') === 'HIT') return body;
  }
  throw new Error(`${path} was not stored`);
}

/** CPU µs per call of `compress` over SECONDS, and the size it gives. */
function measure(compress: () => Buffer): { micros: number; bytes: number } {
  const bytes = compress().length;
  const started = process.cpuUsage();
  const deadline = performance.now() + SECONDS * 1000;
  let calls = 0;
  while (performance.now() < deadline) {
    compress();
    calls++;
  }
  const used = process.cpuUsage(started);
  return { micros: (used.user + used.system) / calls, bytes };
}

async function main(): Promise<void> {
  const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', UPSTREAM_URL: upstream.url, LOG_LEVEL: 'silent', CACHE_PREFIX: 'levels' });
  const portal = createPortal({ config, logger: createLogger('silent'), upstreamUrl: upstream.url });
  const server = await listen(portal, 0, '127.0.0.1', createLogger('silent'), 2000);
  try {
    const base = server.url;
    for (const path of ['/home', DETAIL]) {
      const text = await storedText(base, path);
      console.log(`${path}: ${text.length} bytes of text`);
      const gzip = measure(() => gzipSync(text, { level: 6 }));
      console.log(`  gzip 6     ${gzip.bytes} bytes  ${gzip.micros.toFixed(0)} µs CPU`);
      for (const level of [4, 5, 6, 7, 9]) {
        const params = {
          [constants.BROTLI_PARAM_QUALITY]: level,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: text.length,
        };
        const br = measure(() => brotliCompressSync(text, { params }));
        console.log(`  brotli ${level}   ${br.bytes} bytes  ${br.micros.toFixed(0)} µs CPU  (${((br.bytes / gzip.bytes) * 100).toFixed(1)}% of gzip)`);
      }
    }
  } finally {
    await server.shutdown();
    await portal.close();
    await upstream.close();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
