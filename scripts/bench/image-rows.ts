/**
 * The embedded resizer's rows of `npm run bench` (BENCH_ONLY=images runs only these): the portal's CPU per picture
 * drawn (a miss: the original read from a one-size reference API, decoded, resized, encoded and stored) and per
 * picture answered from L1 (a hit), each against baselines in the same run: the portal's own L1 page HIT and a
 * bare node:http server sending the same picture bytes.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { startReferenceApi } from '../reference-api/server';
import { resizedUrl } from '../../shared/image-pipeline';
import { cpuMicrosOf, loadFrom, startBareServer, startPortalProcess, type LoadResult, type Running } from './processes';

type Row = [string, string, string];

const PICTURES = Number(process.env.BENCH_PICTURES ?? 40);
const AVIF = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const WEBP = 'image/webp,*/*';
const CONNECTIONS = 50;

function fetchBody(url: string, accept: string): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { accept } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts), headers: res.headers }));
      })
      .on('error', reject);
  });
}

/** The portal's CPU per picture over `urls`, each asked once, two at a time (the resizer's own concurrency). */
async function missCost(portal: Running, urls: readonly string[], accept: string): Promise<{ micros: number; bytes: number }> {
  const before = cpuMicrosOf(portal.pid);
  let bytes = 0;
  for (let index = 0; index < urls.length; index += 2) {
    const answers = await Promise.all(urls.slice(index, index + 2).map((url) => fetchBody(portal.url + url, accept)));
    for (const answer of answers) {
      if (answer.status !== 200 || answer.headers['x-cache'] !== 'MISS')
        throw new Error(`a picture was not drawn: ${answer.status} ${String(answer.headers['x-cache'])}`);
      bytes += answer.body.length;
    }
  }
  return { micros: (cpuMicrosOf(portal.pid) - before) / urls.length, bytes: bytes / urls.length };
}

const perRequest = (load: LoadResult) => load.serverMicros / Math.max(1, load.requests);
const rate = (load: LoadResult) => `${(load.requests / load.seconds).toFixed(0)} req/s, p99 ${load.p99} ms, ${perRequest(load).toFixed(0)} µs server CPU/req`;

export async function imageRows(env: Record<string, string>, seconds: number): Promise<Row[]> {
  const upstream = await startReferenceApi({ port: 0, host: '127.0.0.1', images: 'one-size' });
  const running: Running[] = [];
  try {
    const portal = await startPortalProcess({ ...env, UPSTREAM_URL: upstream.url, CACHE_PREFIX: `benchimg${randomBytes(4).toString('hex')}` });
    running.push(portal);
    const pipeline = { kind: 'resizer' as const, origins: [upstream.url], relative: false };
    const sources = Array.from({ length: PICTURES }, (_, index) => `${upstream.url}/media/img/bench${index}-1200x800.jpg`);
    const urls = sources.map((source) => resizedUrl(pipeline, source, 480)!);
    // The originals painted once beforehand, so a miss costs the portal's work, not the reference API's wait.
    for (const source of sources) await fetchBody(source, '*/*');
    const avif = await missCost(portal, urls, AVIF);
    const webp = await missCost(portal, urls, WEBP);
    const original = await fetchBody(sources[0]!, '*/*');

    await fetchBody(`${portal.url}/home`, 'text/html');
    await fetchBody(`${portal.url}/home`, 'text/html');
    const picture = await fetchBody(portal.url + urls[0]!, AVIF);
    const bare = await startBareServer(picture.body, [
      ['content-type', 'image/avif'],
      ['cache-control', 'public, max-age=31536000, immutable'],
      ['vary', 'Accept'],
    ]);
    running.push(bare);
    const spec = (url: string, headers: Record<string, string>) => ({ url, connections: CONNECTIONS, seconds, headers });
    await loadFrom({ ...spec(portal.url + urls[0]!, { accept: AVIF }), seconds: 1 }, portal.pid);
    const hit = await loadFrom(spec(portal.url + urls[0]!, { accept: AVIF }), portal.pid);
    const pageHit = await loadFrom(spec(`${portal.url}/home`, {}), portal.pid);
    const bareHit = await loadFrom(spec(bare.url, {}), bare.pid);

    const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
    return [
      ['L1 page HIT /home (baseline, same portal)', rate(pageHit), '1.00×'],
      [
        `picture drawn (miss): ${kib(original.body.length)} 1600 px JPEG → 480 px AVIF (${kib(avif.bytes)})`,
        `${(avif.micros / 1000).toFixed(1)} ms server CPU/picture`,
        `${(avif.micros / perRequest(pageHit)).toFixed(0)}× an L1 page HIT`,
      ],
      [
        `picture drawn (miss): → 480 px WebP (${kib(webp.bytes)})`,
        `${(webp.micros / 1000).toFixed(1)} ms server CPU/picture`,
        `${(webp.micros / perRequest(pageHit)).toFixed(0)}× an L1 page HIT`,
      ],
      [
        `picture HIT from L1 (${kib(picture.body.length)} AVIF)`,
        rate(hit),
        `${(perRequest(hit) / perRequest(pageHit)).toFixed(2)}× an L1 page HIT; ${(perRequest(hit) / perRequest(bareHit)).toFixed(2)}× bare node:http, same bytes (${perRequest(bareHit).toFixed(0)} µs)`,
      ],
    ];
  } finally {
    for (const server of running.reverse()) await server.stop();
    await upstream.close();
  }
}
