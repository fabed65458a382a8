/**
 * Cost as the work grows (issue 52, docs/capacity.md): Redis memory per stored page, data answer and tag-index
 * entry, a cached hit, a URL purge's and an instance listing's SCAN, at 1k, 10k and 100k article pages held; a tag
 * purge against the pages that carry the tag; a purge against the number of instances; a day of publishes. All on
 * a redis-server of the bench's own (empty at start, so every command and byte counted is the bench's), with real
 * pages: a portal from the production bundle renders an article, its reading mode and home from the reference
 * API onto that Redis, and each article page held is that article's page and data answers as stored, under
 * another article's id, written through RedisStore as a portal writes them. Counts (commands, round trips, bytes,
 * memory) do not depend on the machine's load; times do, and every row with a time says the load it ran under.
 * Only with `BENCH_ONLY=capacity npm run bench` (not in the default run: 100,000 articles hold ~9 GiB in Redis).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { decodeEntry } from '../../server/cache/entry-codec';
import type { CacheEntry } from '../../server/cache/entry';
import { announcedInstances } from '../../server/cache/instances';
import { Invalidator } from '../../server/cache/invalidation';
import { MemoryStore } from '../../server/cache/memory-store';
import { RedisStore } from '../../server/cache/redis-store';
import { decodePage } from '../../server/cache/stored-page';
import { PROJECT_ROOT } from '../../server/render/assets';
import type { RedisClient } from '../../server/redis/client';
import { scanAll } from '../../server/redis/commands';
import { seeded } from '../seeded-random';
import { connect, dayOfPublishesRows, fanOutRows, ready } from './capacity-fanout';
import { startPortalProcess, startRedisServer, type Running } from './processes';
import { commandList, countersOf, deltaOf, formatCount, memoryOfKeys, startRoundTripProxy, type RoundTripProxy } from './redis-counters';
import { DETAIL } from './render-portals';

type Row = [string, string, string];

const KB = 1024;
const MB = KB * KB;
const SIZES = (process.env.BENCH_CAPACITY_PAGES ?? '1000,10000,100000').split(',').map(Number);
/** Pages carrying a purged tag: each count a run of pages of its own (1: page 0; 100: pages 1–100; …), none shared. */
const TAGGED = [1, 100, 10_000];
const taggedFrom = (count: number) => TAGGED.filter((other) => other < count).reduce((sum, other) => sum + other, 0);
const HITS = Number(process.env.BENCH_CAPACITY_HITS ?? 2000);
const L1_LOOKUPS = 200_000;
const PREFIX = 'cap';
const ARTICLE_ID = DETAIL.split('/').at(-1)!;
const FIRST_ID = 1_000_000;
/** The id of the tag carried by the first `count` pages (article ids no page has otherwise). */
const taggedId = (count: number) => 9_000_000 + count;

/** `date, commit, load average`: what every timed row ran under. */
function loadNow(): string {
  const [one, five] = os.loadavg();
  return `under load ${one!.toFixed(1)}/${five!.toFixed(1)} on ${os.cpus().length} cores`;
}

function commitOf(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

interface Sample {
  key: string;
  entry: CacheEntry;
  stored: number;
  memory: number;
}

/** Every entry the portal stored, as stored: its key, the entry, its bytes in Redis and MEMORY USAGE. */
async function storedEntries(admin: RedisClient, kind: 'page' | 'data'): Promise<Sample[]> {
  // `{prefix}:{build}:{kind}:…`; the glob alone would match tag sets too (`{prefix}:tag:page:detail`).
  const keys = (await scanAll(admin, `${PREFIX}:*:${kind}:*`)).filter((key) => !key.startsWith(`${PREFIX}:tag:`)).sort();
  const samples: Sample[] = [];
  for (const key of keys) {
    const raw = await admin.getBuffer(key);
    const entry = raw && decodeEntry(raw);
    if (!raw || !entry) continue;
    samples.push({ key, entry, stored: raw.length, memory: await memoryOfKeys(admin, [key]) });
  }
  return samples;
}

/** The article's id in a key, tag or read replaced by `id` (another article's page, the same bytes). */
function asArticle(text: string, id: number): string {
  return text.replace(new RegExp(`(?<![0-9])${ARTICLE_ID}(?![0-9])`, 'g'), String(id));
}

interface Article {
  page: Sample;
  /** The data answers only this article's page reads (its id in their key). */
  data: Sample[];
}

function entryOf(sample: Sample, id: number, extraTags: string[]): CacheEntry {
  const { entry } = sample;
  return {
    ...entry,
    storedAt: Date.now(),
    tags: [...entry.tags.map((tag) => asArticle(tag, id)), ...extraTags],
    ...(entry.reads ? { reads: entry.reads.map((read) => asArticle(read, id)) } : {}),
  };
}

/** Page `index` and its data answers, through the store as a portal writes them. */
async function storeArticle(store: RedisStore, article: Article, index: number): Promise<void> {
  const id = FIRST_ID + index;
  const purgeTags = TAGGED.filter((count) => index >= taggedFrom(count) && index < taggedFrom(count) + count).map((count) => `article:${taggedId(count)}`);
  await store.set(asArticle(article.page.key, id), entryOf(article.page, id, purgeTags));
  for (const data of article.data) await store.set(asArticle(data.key, id), entryOf(data, id, []));
}

async function fill(store: RedisStore, article: Article, from: number, to: number): Promise<void> {
  const inFlight = 64;
  for (let start = from; start < to; start += inFlight) {
    const batch: Array<Promise<void>> = [];
    for (let index = start; index < Math.min(to, start + inFlight); index += 1) batch.push(storeArticle(store, article, index));
    await Promise.all(batch);
  }
}

/** Bytes the kernel says this machine can still give: a fill that would not fit is not started. */
function memAvailable(): number {
  const line = execFileSync('grep', ['MemAvailable', '/proc/meminfo'], { encoding: 'utf8' });
  return Number(/(\d+)/.exec(line)?.[1] ?? 0) * KB;
}

export async function capacityRows(upstreamUrl: string): Promise<Row[]> {
  const rows: Row[] = [[`measured ${new Date().toISOString().slice(0, 16)}Z, commit ${commitOf()}`, loadNow(), 'counts are load-independent; times are not']];
  const redis = await startRedisServer();
  const admin = connect(redis.url);
  const proxy = await startRoundTripProxy(redis.url);
  const client = connect(proxy.url);
  try {
    await Promise.all([ready(admin), ready(client)]);
    const { article, sampleRows } = await renderedSamples(upstreamUrl, redis, admin);
    rows.push(...sampleRows);
    await admin.flushall();
    rows.push(...(await fanOutRows(redis.url, proxy, admin, loadNow)));
    rows.push(...(await dayOfPublishesRows(admin, redis.url)));
    await admin.flushall();
    rows.push(...(await growthRows(redis.url, admin, client, proxy, article)));
    rows.push(...(await tagPurgeRows(admin, client, proxy, article)));
    rows.push(...l1LookupRows());
  } finally {
    client.disconnect();
    admin.disconnect();
    await proxy.close();
    await redis.stop();
  }
  return rows;
}

/** A portal renders the pages onto the bench's Redis; what it stored, as rows, and the article to copy. */
async function renderedSamples(upstreamUrl: string, redis: Running, admin: RedisClient): Promise<{ article: Article; sampleRows: Row[] }> {
  const portal = await startPortalProcess({ UPSTREAM_URL: upstreamUrl, REDIS_URL: redis.url, CACHE_PREFIX: PREFIX });
  try {
    for (const path of [DETAIL, DETAIL.replace('/detail/', '/detailReading/'), '/home']) {
      for (let read = 0; read < 2; read += 1) await (await fetch(portal.url + path)).arrayBuffer();
    }
  } finally {
    await portal.stop();
  }
  const pages = await storedEntries(admin, 'page');
  const data = await storedEntries(admin, 'data');
  const detail = pages.find((page) => page.key.endsWith(DETAIL));
  if (!detail) throw new Error(`the portal stored no ${DETAIL}`);
  const own = data.filter((sample) => asArticle(sample.key, 0) !== sample.key);
  const rows: Row[] = pages.map((page) => {
    const forms = decodePage(page.entry.value as Buffer);
    return [
      `stored page ${page.key.slice(page.key.indexOf(':page:') + 6)}: identity / gzip / brotli`,
      `${(forms.identity.length / KB).toFixed(1)} / ${(forms.gzip.length / KB).toFixed(1)} / ${(forms.br.length / KB).toFixed(1)} KiB, ${(page.stored / KB).toFixed(1)} KiB stored, MEMORY USAGE ${(page.memory / KB).toFixed(1)} KiB`,
      `${page.entry.tags.length} tags, ${page.entry.reads?.length ?? 0} data answers read`,
    ];
  });
  const sum = (samples: Sample[], field: 'stored' | 'memory') => samples.reduce((total, sample) => total + sample[field], 0);
  rows.push([
    'data answers held after those renders',
    `${data.length}, ${(sum(data, 'memory') / KB).toFixed(0)} KiB MEMORY USAGE (median ${(median(data.map((sample) => sample.memory)) / KB).toFixed(1)} KiB)`,
    `${own.length} of them this article's own (${(sum(own, 'memory') / KB).toFixed(1)} KiB): held once per article`,
  ]);
  return { article: { page: detail, data: own }, sampleRows: rows };
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * At each size: Redis memory per article held (page, its own data answers, their tag-index entries), a cached
 * hit's cost (the gzip form of a random held page, read as a portal without L1 reads it), and the two SCANs a
 * purge may make (a URL purge's, the purger's listing of instances), each in commands, round trips and bytes.
 */
async function growthRows(redisUrl: string, admin: RedisClient, client: RedisClient, proxy: RoundTripProxy, article: Article): Promise<Row[]> {
  const rows: Row[] = [];
  // Filled straight, not through the counting proxy: the fill is not what is measured.
  const store = new RedisStore({ client: connect(redisUrl) });
  const reader = new RedisStore({ client });
  const perArticle = article.page.stored + article.data.reduce((total, data) => total + data.stored, 0);
  let held = 0;
  let firstHit: number | null = null;
  try {
    await ready(store.client);
    const empty = await countersOf(admin);
    for (const size of SIZES) {
      // Redis held 1.1× the stored bytes an article at 1k and 10k (the tag index, allocator classes): 1.2 to be safe.
      const need = (size - held) * perArticle * 1.2;
      if (need > memAvailable() / 2) {
        rows.push([`${size} article pages held`, `not run: about ${(need / MB).toFixed(0)} MiB needed, ${(memAvailable() / MB).toFixed(0)} MiB available`, '']);
        continue;
      }
      await fill(store, article, held, size);
      held = size;
      rows.push(await memoryRow(admin, empty.usedMemory, size));
      const hit = await hitRow(admin, reader, proxy, article, size);
      firstHit ??= hit.micros;
      rows.push([hit.row[0], hit.row[1], `${(hit.micros / firstHit).toFixed(2)}× the time at ${SIZES[0]}`]);
      rows.push(await scanRow(admin, client, proxy, article, size));
    }
  } finally {
    store.client.disconnect();
  }
  return rows;
}

async function memoryRow(admin: RedisClient, emptyMemory: number, size: number): Promise<Row> {
  const used = (await countersOf(admin)).usedMemory - emptyMemory;
  const tagKeys = await scanAll(admin, `${PREFIX}:tag:*`);
  const tags = await memoryOfKeys(admin, tagKeys);
  const members = await Promise.all(tagKeys.map((key) => admin.scard(key)));
  const indexed = members.reduce((total, count) => total + count, 0);
  const largest = members.reduce((most, count) => Math.max(most, count), 0);
  return [
    `Redis memory, ${size} article pages held (page + own data answers + tag index)`,
    `${(used / MB).toFixed(1)} MiB, ${(used / size / KB).toFixed(1)} KiB an article; tag index ${(tags / MB).toFixed(1)} MiB in ${tagKeys.length} sets, ${(tags / indexed).toFixed(0)} B an entry`,
    `${indexed} index entries (${(indexed / size).toFixed(1)} an article), largest set ${largest} keys`,
  ];
}

async function hitRow(admin: RedisClient, reader: RedisStore, proxy: RoundTripProxy, article: Article, size: number): Promise<{ row: Row; micros: number }> {
  const random = seeded(size);
  const keyOf = () => asArticle(article.page.key, FIRST_ID + Math.floor(random() * size));
  for (let warm = 0; warm < 200; warm += 1) await reader.getPageForm(keyOf(), 'gzip');
  const before = await countersOf(admin);
  proxy.reset();
  const started = performance.now();
  for (let hit = 0; hit < HITS; hit += 1) {
    const held = await reader.getPageForm(keyOf(), 'gzip');
    if (!held?.page.gzip) throw new Error(`a held page was not read (${size} held)`);
  }
  const micros = ((performance.now() - started) * 1000) / HITS;
  const delta = deltaOf(before, await countersOf(admin));
  return {
    row: [
      `cached hit from Redis (gzip form), ${size} pages held`,
      `${commandList(delta, HITS)} (${formatCount(delta.commands / HITS)} commands), ${formatCount(proxy.trips() / HITS)} round trips, ${(delta.netOutput / HITS / KB).toFixed(1)} KiB a hit; ${micros.toFixed(0)} µs a hit, one at a time (${loadNow()})`,
      '',
    ],
    micros,
  };
}

/** A URL purge (dry run: only what it reads) and the purger's listing of instances: both SCAN the keyspace. */
async function scanRow(admin: RedisClient, client: RedisClient, proxy: RoundTripProxy, article: Article, size: number): Promise<Row> {
  const build = article.page.key.split(':')[1]!;
  const invalidator = new Invalidator(new RedisStore({ client }), { prefix: PREFIX, buildId: build });
  const keys = await admin.dbsize();
  const before = await countersOf(admin);
  proxy.reset();
  const started = performance.now();
  const result = await invalidator.purge({ by: 'url', siteId: 0, pathname: DETAIL.replace(ARTICLE_ID, String(FIRST_ID)), search: null }, { dryRun: true });
  const urlMs = performance.now() - started;
  const urlTrips = proxy.trips();
  const urlDelta = deltaOf(before, await countersOf(admin));
  if (result.keys.length === 0) throw new Error('the URL purge found nothing');
  proxy.reset();
  const listedAt = performance.now();
  await announcedInstances(client, PREFIX);
  const listMs = performance.now() - listedAt;
  return [
    `SCAN-based work, ${size} article pages held (${keys} keys in Redis)`,
    `URL purge (dry run): ${commandList(urlDelta)}, ${urlTrips} round trips, ${urlMs.toFixed(0)} ms; instance listing: ${proxy.trips()} round trips, ${listMs.toFixed(0)} ms (${loadNow()})`,
    `${(urlTrips / Math.max(1, keys)).toFixed(4)} round trips a key held: grows with the keyspace`,
  ];
}

/**
 * Tag purges (the Invalidator on RedisStore, as the shared part of a purge runs) of a tag 1, 100 and 10,000 fresh
 * pages carry: soft first (the hook's default for an update: each page read and marked stale), then hard (deleted).
 */
async function tagPurgeRows(admin: RedisClient, client: RedisClient, proxy: RoundTripProxy, article: Article): Promise<Row[]> {
  const build = article.page.key.split(':')[1]!;
  const store = new RedisStore({ client });
  const invalidator = new Invalidator(store, { prefix: PREFIX, buildId: build });
  const rows: Row[] = [];
  for (const count of TAGGED) {
    const tag = `article:${taggedId(count)}`;
    for (const soft of [true, false]) {
      // Stored again first, so they are fresh: a soft purge rewrites fresh pages only (stale ones it leaves).
      const first = taggedFrom(count);
      for (let index = first; index < first + count; index += 1) await storeArticle(store, article, index);
      const before = await countersOf(admin);
      proxy.reset();
      const started = performance.now();
      const result = await invalidator.purge({ by: 'tag', tag }, { soft });
      const ms = performance.now() - started;
      const delta = deltaOf(before, await countersOf(admin));
      if (result.keys.length === 0) {
        rows.push([`${soft ? 'soft' : 'hard'} tag purge, ${count} pages carry the tag`, 'not run: fewer pages held', '']);
        continue;
      }
      rows.push([
        `${soft ? 'soft' : 'hard'} tag purge, ${result.keys.length} pages carry the tag`,
        `${delta.commands} commands (${commandList(delta)}), ${proxy.trips()} round trips, ${(delta.netOutput / MB).toFixed(1)} MiB out of Redis; ${ms.toFixed(0)} ms (${loadNow()})`,
        `${(proxy.trips() / result.keys.length).toFixed(2)} round trips, ${formatCount(delta.commands / result.keys.length)} commands a page`,
      ]);
    }
  }
  return rows;
}

/** An L1 lookup (lru-cache through MemoryStore.getNow) against the entries it holds, sizes in turn, three rounds. */
function l1LookupRows(): Row[] {
  const value = Buffer.alloc(70 * KB);
  const stores = SIZES.map((size) => {
    const store = new MemoryStore(Number.MAX_SAFE_INTEGER);
    for (let index = 0; index < size; index += 1)
      void store.set(`cap:b:page:0:/detail/2728/${FIRST_ID + index}`, {
        value,
        storedAt: Date.now(),
        ttl: 600,
        grace: 60,
        tags: [`article:${FIRST_ID + index}`],
      });
    return store;
  });
  const nanos = SIZES.map(() => Infinity);
  for (let round = 0; round < 3; round += 1) {
    SIZES.forEach((size, index) => {
      const random = seeded(round * 7 + index);
      const keys = Array.from({ length: 1000 }, () => `cap:b:page:0:/detail/2728/${FIRST_ID + Math.floor(random() * size)}`);
      const started = process.hrtime.bigint();
      for (let lookup = 0; lookup < L1_LOOKUPS; lookup += 1) if (!stores[index]!.getNow(keys[lookup % 1000]!)) throw new Error('an L1 lookup missed');
      nanos[index] = Math.min(nanos[index]!, Number(process.hrtime.bigint() - started) / L1_LOOKUPS);
    });
  }
  return SIZES.map((size, index) => [
    `cached hit's L1 lookup, ${size} entries held`,
    `${nanos[index]!.toFixed(0)} ns a lookup, best of 3 rounds (${loadNow()})`,
    `${(nanos[index]! / nanos[0]!).toFixed(2)}× the lookup at ${SIZES[0]}`,
  ]);
}
