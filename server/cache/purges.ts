/**
 * A purge carried out everywhere a page can be held, and recorded (docs/cache.md "Purges"): the shared store
 * (Redis, or the one in-process store), every instance's L1 by selector (announced on the coherence bus, so a
 * copy is dropped whether or not Redis still holds its key), then the edges (Varnish) in front. Whoever purges,
 * the publish hook or `portal-cache purge`, waits until every announced instance has acknowledged, names those
 * that did not, and writes one record to the purge history.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { siteById, siteOfKnownHost } from '../../shared/sites';
import type { RedisClient } from '../redis/client';
import type { EdgeAck, EdgePurgeOrder } from './edge-purge';
import { announcedInstances } from './instances';
import { edgeTagsOf } from './tags';
import type { PurgeClock } from './purge-clock';
import { Invalidator, PurgeInputError, urlSelector, validate, type PurgeSelector, type PurgeSpace } from './invalidation';
import type { CacheStore } from './store';

/** What the bus carries to every instance: the selectors themselves, resolved by each against its own L1. */
export interface PurgeAnnouncement {
  id: string;
  selectors: PurgeSelector[];
  /** Only this build's entries ('*': every build). */
  build: string;
}

export interface InstanceAck {
  id: string;
  /** L1 copies it dropped. */
  entries: number;
}

/** One purge as the history keeps it (and `portal-cache purges` reads it back). */
export const purgeRecord = z.object({
  id: z.string(),
  /** ISO time the purge started. */
  at: z.string(),
  /** `cms (10.0.0.7)` for the hook, `user@host` for the CLI, `portal <instance>` for the flag watch. */
  who: z.string(),
  /** `watch`: a flag the CMS switched without the hook, found by an instance (server/upstream/flag-watch.ts). */
  source: z.enum(['hook', 'cli', 'watch']),
  /** What was asked, as its author wrote it: the hook's tags and URLs, or the CLI's command line. */
  what: z.string(),
  tags: z.array(z.string()),
  urls: z.array(z.string()),
  soft: z.boolean(),
  /** Entries deleted or marked stale in the shared store. */
  entries: z.number(),
  instances: z.object({ acknowledged: z.array(z.object({ id: z.string(), entries: z.number() })), missing: z.array(z.string()) }),
  /** Each edge's answer (edge-purge.ts's EdgeAck). */
  edges: z.array(z.object({ edge: z.string(), ok: z.boolean(), purged: z.number().optional(), reason: z.string().optional(), ms: z.number() })),
  ms: z.number(),
});

export type PurgeRecord = z.infer<typeof purgeRecord>;

/** How many purges the history keeps (the newest). */
export const HISTORY_LENGTH = 1000;
/** How long a purger waits for the instances' acknowledgements before naming the missing ones. */
export const ACK_TIMEOUT_MS = 2000;
const ACK_POLL_MS = 20;
/** URLs sent to the edges for one purge (the order's and the pages found): a runaway tag cannot flood them. */
const MAX_EDGE_URLS = 5000;

export function historyKey(prefix: string): string {
  return `${prefix}:purges`;
}

/**
 * True for the one instance that claims purge `id` for the purge counters: a purge run outside the portals (the
 * CLI) reaches every instance on the bus, and counted by each it would read as one per instance.
 */
export async function claimCount(client: RedisClient, prefix: string, id: string): Promise<boolean> {
  return (await client.set(`${prefix}:purge:${id}:counted`, '1', 'EX', 3600, 'NX')) === 'OK';
}

export function ackKey(prefix: string, id: string): string {
  return `${prefix}:purge:${id}:acks`;
}

export interface PurgesOptions {
  /** The shared store: Redis (or the tiered store in front of it), or the one in-process store. */
  store: CacheStore;
  prefix: string;
  /** Null without Redis: one instance, history in process. */
  client: RedisClient | null;
  /** This instance's id and how it drops its own L1 copies; null for the CLI, which has no L1. */
  self: { id: string; purgeLocal: (selectors: readonly PurgeSelector[], build: string) => Promise<number> } | null;
  /** Tells every other instance (the coherence bus, or the CLI's PUBLISH). */
  announce: (announcement: PurgeAnnouncement) => Promise<void>;
  edges?: { purge(order: EdgePurgeOrder): Promise<EdgeAck[]> } | null;
  ackTimeoutMs?: number;
  /** This instance's record of purges (purge-clock.ts); the CLI has none. */
  clock?: PurgeClock;
  /** Only this build's entries (the CLI's --build); default every build. */
  buildId?: string;
}

export interface PurgeOrderInput {
  /** The CMS's id of the event, recorded with the purge. */
  event?: string;
  tags: readonly string[];
  urls: readonly string[];
  soft: boolean;
}

/**
 * The acknowledgements of purge `id` (instance id → L1 copies it dropped), polled until each of `expected` has
 * answered or the time is up: an instance killed without withdrawing its announcement never answers.
 */
export async function acknowledgementsOf(
  client: RedisClient,
  prefix: string,
  id: string,
  expected: readonly string[],
  timeoutMs = ACK_TIMEOUT_MS,
): Promise<Record<string, string>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const acks = await client.hgetall(ackKey(prefix, id));
    if (expected.every((instanceId) => instanceId in acks) || Date.now() >= deadline) return acks;
    await new Promise((resolve) => setTimeout(resolve, ACK_POLL_MS));
  }
}

export class Purges {
  private readonly localHistory: PurgeRecord[] = [];
  /** Without Redis: signatures seen, until when they are kept. */
  private readonly usedSignatures = new Map<string, number>();
  private readonly space: PurgeSpace;

  constructor(private readonly options: PurgesOptions) {
    // Every build of the prefix unless told otherwise: during a rolling deploy the old build's pages are just as wrong.
    this.space = { prefix: options.prefix, buildId: options.buildId ?? '*' };
  }

  /** Checks every tag and URL before anything is touched: a bad one is a PurgeInputError and changes nothing. */
  async selectorsOf(order: PurgeOrderInput): Promise<PurgeSelector[]> {
    const byUrl = await Promise.all(order.urls.map((url) => urlSelector(url, strictSiteOf(url), true)));
    const selectors: PurgeSelector[] = [...order.tags.map((tag): PurgeSelector => ({ by: 'tag', tag })), ...byUrl];
    for (const selector of selectors) validate(selector, this.space);
    return selectors;
  }

  /** The hook's purge: its tags and URLs, each checked first. */
  async purge(order: PurgeOrderInput, who: string, source: PurgeRecord['source']): Promise<PurgeRecord> {
    const selectors = await this.selectorsOf(order);
    const what = [...order.tags, ...order.urls].join(' ');
    return this.run(selectors, { ...order, who, source, what: order.event ? `${what} (event ${order.event})` : what });
  }

  /**
   * Any selectors (the CLI's --key, --site, --all too): purged in the shared store, on every instance, at the
   * edges (by `edge`'s tags and URLs and the pages found), and recorded.
   */
  async run(selectors: readonly PurgeSelector[], order: PurgeOrderInput & Pick<PurgeRecord, 'who' | 'source' | 'what'>): Promise<PurgeRecord> {
    const started = Date.now();
    for (const selector of selectors) validate(selector, this.space);
    const { who, source, what } = order;
    const id = randomUUID();
    this.options.clock?.note(selectors, this.space.buildId, started);
    const { entries, pageUrls } = await this.purgeShared(selectors, order.soft);
    await this.options.announce({ id, selectors: [...selectors], build: this.space.buildId });
    const own = this.options.self ? [{ id: this.options.self.id, entries: await this.options.self.purgeLocal(selectors, this.space.buildId) }] : [];
    const others = await this.acknowledgements(id);
    // Once every instance knows of the purge, nothing begun before it is stored any more; what such a load or
    // render stored in between (on an instance that had not heard yet) goes now.
    if (this.options.client) await this.purgeShared(selectors, order.soft);
    // The edges after the portal: an edge refetching before the portal had dropped its copy would store it again.
    // With the URLs of the pages the portal found: a page whose Surrogate-Key had no room for an item's key
    // (tags.ts MAX_SURROGATE_KEY_BYTES) is reached by its address.
    // Each URL as the edge files it (`path:` + the reader's Host + the path): the site's own domain and the path's
    // canonical spelling, not the text the caller typed (`https://www.qnnews.cn:8443/a/../about`, `…cn./about`).
    const urls = [...new Set([...selectors.flatMap(edgeUrlOf), ...pageUrls])].slice(0, MAX_EDGE_URLS);
    // An item's purge reaches too the pages whose Surrogate-Key had no room for its key (tags.ts edgeTagsOf).
    const edges = this.options.edges ? await this.options.edges.purge({ tags: edgeTagsOf(order.tags), urls, soft: order.soft }) : [];
    const record: PurgeRecord = {
      id,
      at: new Date(started).toISOString(),
      who,
      source,
      what,
      tags: [...order.tags],
      urls: [...order.urls],
      soft: order.soft,
      entries,
      instances: { acknowledged: [...own, ...others.acknowledged], missing: others.missing },
      edges,
      ms: Date.now() - started,
    };
    await this.remember(record);
    return record;
  }

  /** This instance's part of a purge announced by another: drop the L1 copies, then say so. */
  async acknowledge(announcement: PurgeAnnouncement): Promise<void> {
    const { self, client, prefix } = this.options;
    if (!self) return;
    this.options.clock?.note(announcement.selectors, announcement.build);
    const entries = await self.purgeLocal(announcement.selectors, announcement.build);
    if (!client) return;
    const key = ackKey(prefix, announcement.id);
    await client.hset(key, self.id, String(entries));
    await client.pexpire(key, 60_000);
  }

  /**
   * True the first time a hook signature is seen (kept twice the signature tolerance, across instances when
   * there is Redis): a captured call sent again is refused even inside the tolerance.
   */
  async firstUse(signature: string, keepSeconds: number): Promise<boolean> {
    const { client, prefix } = this.options;
    if (client) return (await client.set(`${prefix}:purge:signature:${signature}`, '1', 'EX', keepSeconds, 'NX')) === 'OK';
    const now = Date.now();
    for (const [seen, until] of this.usedSignatures) if (until < now) this.usedSignatures.delete(seen);
    if (this.usedSignatures.has(signature)) return false;
    this.usedSignatures.set(signature, now + keepSeconds * 1000);
    return true;
  }

  /** The newest purges first. */
  async history(limit: number): Promise<PurgeRecord[]> {
    const { client, prefix } = this.options;
    if (!client) return this.localHistory.slice(0, limit);
    const values = await client.lrange(historyKey(prefix), 0, limit - 1);
    return values.flatMap((value) => {
      try {
        const parsed = purgeRecord.safeParse(JSON.parse(value));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
  }

  private async purgeShared(selectors: readonly PurgeSelector[], soft: boolean): Promise<{ entries: number; pageUrls: string[] }> {
    const invalidator = new Invalidator(this.options.store, this.space);
    let entries = 0;
    const pageUrls: string[] = [];
    for (const selector of selectors) {
      const result = await invalidator.purge(selector, { soft });
      entries += result.deleted;
      pageUrls.push(...result.keys.flatMap(pageUrlOf));
    }
    return { entries, pageUrls };
  }

  /** Polls the acknowledgements until every announced instance but this one has answered, or the time is up. */
  private async acknowledgements(id: string): Promise<{ acknowledged: InstanceAck[]; missing: string[] }> {
    const { client, prefix, self } = this.options;
    if (!client) return { acknowledged: [], missing: [] };
    const expected = (await announcedInstances(client, prefix)).map((instance) => instance.id).filter((instanceId) => instanceId !== self?.id);
    const acks = await acknowledgementsOf(client, prefix, id, expected, this.options.ackTimeoutMs);
    return {
      acknowledged: Object.entries(acks)
        .filter(([instanceId]) => instanceId !== self?.id)
        .map(([instanceId, entries]) => ({ id: instanceId, entries: Number(entries) })),
      missing: expected.filter((instanceId) => !(instanceId in acks)),
    };
  }

  private async remember(record: PurgeRecord): Promise<void> {
    const { client, prefix } = this.options;
    if (!client) {
      this.localHistory.unshift(record);
      this.localHistory.length = Math.min(this.localHistory.length, HISTORY_LENGTH);
      return;
    }
    await client.lpush(historyKey(prefix), JSON.stringify(record));
    await client.ltrim(historyKey(prefix), 0, HISTORY_LENGTH - 1);
  }
}

/** A URL selector as the address readers reach its page by (every query variant: the edge keys a path). */
function edgeUrlOf(selector: PurgeSelector): string[] {
  if (selector.by !== 'url') return [];
  const site = siteById(selector.siteId);
  return site ? [`https://${site.domain}${selector.pathname}`] : [];
}

/** `{prefix}:{build}:page:{site}:{path}` → the page's address without its query (the edge keys a path). */
function pageUrlOf(key: string): string[] {
  const parts = key.split(':');
  if (parts[2] !== 'page') return [];
  const site = siteById(Number(parts[3]));
  if (!site) return [];
  const target = parts.slice(4).join(':');
  const query = target.indexOf('?');
  return [`https://${site.domain}${query < 0 ? target : target.slice(0, query)}`];
}

/** A purge URL's host must be one of the portal's sites: never read as the main site, which it would purge instead. */
function strictSiteOf(url: string): (host: string | undefined) => number {
  return (host) => {
    if (host === undefined)
      throw new PurgeInputError(`url ${JSON.stringify(url)}: give the whole address (https://www.qnnews.cn/about), the host picks the site`);
    const site = siteOfKnownHost(host);
    if (!site) throw new PurgeInputError(`url ${JSON.stringify(url)}: ${JSON.stringify(host)} is not one of the portal's sites`);
    return site.id;
  };
}
