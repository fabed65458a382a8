/**
 * What the operator CLI reports: the entries a prefix holds in Redis (by kind and site, bytes, the largest
 * keys) and, from the portals' /metrics, hit ratios by kind and site, stale served and upstream errors.
 */
import type { RedisClient } from '../redis/client';
import { scanAll } from '../redis/commands';
import { freshnessOf, type Freshness } from './entry';
import { decodeEntry } from './entry-codec';
import { escapeGlob } from './keys';

export interface EntryStats {
  entries: number;
  bytes: number;
  byKind: Record<string, { entries: number; bytes: number }>;
  bySite: Record<string, { entries: number; bytes: number }>;
  top: Array<{ key: string; bytes: number }>;
}

/** Cache keys are `{prefix}:{build}:{kind}:{site}:…`; tag sets, locks, the policy and channels are not entries. */
export function parseEntryKey(key: string): { build: string; kind: string; site: string } | null {
  const [, build, kind, site] = key.split(':', 4);
  if (!build || !site || (kind !== 'page' && kind !== 'data') || build === 'tag' || build === 'lock') return null;
  return { build, kind, site };
}

/** Every key matching the glob (on a cluster: from every master). */
export function scanKeys(client: RedisClient, glob: string): Promise<string[]> {
  return scanAll(client, glob);
}

export async function entryStats(client: RedisClient, prefix: string, topN = 10): Promise<EntryStats> {
  const keys = (await scanKeys(client, `${escapeGlob(prefix)}:*`)).filter((key) => parseEntryKey(key) !== null);
  const sizes = await Promise.all(keys.map((key) => client.strlen(key)));
  const stats: EntryStats = { entries: 0, bytes: 0, byKind: {}, bySite: {}, top: [] };
  keys.forEach((key, index) => {
    const parsed = parseEntryKey(key)!;
    const bytes = sizes[index] ?? 0;
    stats.entries += 1;
    stats.bytes += bytes;
    add(stats.byKind, parsed.kind, bytes);
    add(stats.bySite, parsed.site, bytes);
    stats.top.push({ key, bytes });
  });
  stats.top = stats.top.sort((left, right) => right.bytes - left.bytes).slice(0, topN);
  return stats;
}

/** The prefixes that hold entries in this Redis: a hint when the one asked for holds none. */
export async function knownPrefixes(client: RedisClient): Promise<string[]> {
  const keys = await scanKeys(client, '*:*:page:*');
  return [...new Set(keys.filter((key) => parseEntryKey(key) !== null).map((key) => key.slice(0, key.indexOf(':'))))].sort();
}

/** The builds a prefix holds entries of (the newest deploy and any older one still held). */
export async function buildsOf(client: RedisClient, prefix: string): Promise<string[]> {
  const keys = await scanKeys(client, `${escapeGlob(prefix)}:*`);
  return [...new Set(keys.map(parseEntryKey).flatMap((parsed) => (parsed ? [parsed.build] : [])))].sort();
}

function add(into: Record<string, { entries: number; bytes: number }>, name: string, bytes: number): void {
  const bucket = (into[name] ??= { entries: 0, bytes: 0 });
  bucket.entries += 1;
  bucket.bytes += bytes;
}

export interface EntryReport {
  key: string;
  freshness: Freshness;
  ageSeconds: number;
  ttl: number;
  grace: number;
  staleIfError: number;
  tags: string[];
  bytes: number;
  /** Milliseconds Redis keeps it for. */
  expiresInMs: number;
}

export async function inspectKey(client: RedisClient, key: string, now = Date.now()): Promise<EntryReport | null> {
  const [raw, pttl] = await Promise.all([client.getBuffer(key), client.pttl(key)]);
  if (raw === null) return null;
  const entry = decodeEntry(raw);
  if (!entry) return null;
  return {
    key,
    freshness: freshnessOf(entry, now),
    ageSeconds: Math.max(0, Math.round((now - entry.storedAt) / 1000)),
    ttl: entry.ttl,
    grace: entry.grace,
    staleIfError: entry.staleIfError ?? 0,
    // A tag can be recorded by several calls of one page; it is one dependency.
    tags: [...new Set(entry.tags)].sort(),
    bytes: raw.length,
    expiresInMs: pttl,
  };
}

// ---- from /metrics ----

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

export interface Ratios {
  /** `page` / `data`, and `page site 3` style rows, each with hits (HIT+STALE), misses and the ratio. */
  rows: Array<{ kind: string; site: string; hits: number; stale: number; misses: number; pass: number; hitRatio: number | null }>;
  staleIfError: number;
  upstreamErrors: number;
  upstreamCalls: number;
}

/** Hit ratios from cache result counters; `before` (an earlier scrape) turns totals into a window. */
export function hitRatios(after: Sample[], before: Sample[] = []): Ratios {
  const delta = (name: string, filter: (labels: Record<string, string>) => boolean) => sum(after, name, filter) - sum(before, name, filter);
  const groups = new Map<string, { kind: string; site: string }>();
  for (const sample of after) {
    if (sample.name !== 'portal_cache_results_total') continue;
    const { kind = '?', site = '?' } = sample.labels;
    groups.set(`${kind} ${site}`, { kind, site });
  }
  const rows = [...groups.values()]
    .sort((left, right) => (left.kind + left.site).localeCompare(right.kind + right.site, 'en', { numeric: true }))
    .map(({ kind, site }) => {
      const count = (result: string) =>
        delta('portal_cache_results_total', (labels) => labels.kind === kind && labels.site === site && labels.result === result);
      const hits = count('HIT');
      const stale = count('STALE');
      const misses = count('MISS');
      const pass = count('PASS');
      const looked = hits + stale + misses;
      return { kind, site, hits, stale, misses, pass, hitRatio: looked === 0 ? null : (hits + stale) / looked };
    });
  return {
    rows,
    staleIfError: delta('portal_cache_errors_total', (labels) => labels.error === 'stale-if-error'),
    // Every outcome but a success and an answered code (not found) is a failed call: cms-error, invalid, too-large…
    upstreamErrors: delta('portal_upstream_duration_seconds_count', (labels) => labels.outcome !== 'ok' && labels.outcome !== 'empty'),
    upstreamCalls: delta('portal_upstream_duration_seconds_count', () => true),
  };
}

function sum(samples: Sample[], name: string, filter: (labels: Record<string, string>) => boolean): number {
  return samples.filter((sample) => sample.name === name && filter(sample.labels)).reduce((total, sample) => total + sample.value, 0);
}
