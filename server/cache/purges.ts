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
import type { PurgeAnnouncement, UsedSignature } from './coherence';
import type { PeerPurger } from './peer-purge';
import type { NotedPurge, PurgeClock } from './purge-clock';
import { appendPurge, compareLogIds, purgeLogEpoch, purgeLogSince, purgeLogTail, type LoggedPurge } from './purge-log';
import { Invalidator, PurgeInputError, urlSelector, validate, type PurgeSelector, type PurgeSpace } from './invalidation';
import type { CacheStore } from './store';

export type { PurgeAnnouncement } from './coherence';

/** What an instance dropped from its own L1: how many, and their keys (pages' URLs go to the edges). */
export interface LocalPurge {
  entries: number;
  keys: string[];
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
  /**
   * What could not be reached when it was made (Redis down): `redis` and the other `instances`. The purge was
   * held and is replayed to them, in order, once Redis answers (its record then written with `replayedAt`).
   */
  unreached: z.array(z.enum(['redis', 'instances'])).optional(),
  /** ISO time a held purge was replayed to Redis and every instance. */
  replayedAt: z.string().optional(),
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

/**
 * An instance purges the edges again this long after it purged them: an edge fetch that began before the portal's
 * own purge carries the page the portal held until then, and the edge indexes that object (xkey) only when its
 * headers arrive, after the purge has passed it by, so it would serve the old text for a whole TTL. Most such
 * fetches end within a second; none outlasts the shipped VCL's first_byte_timeout (15 s), the last follow-up.
 */
export const EDGE_FOLLOW_UPS_MS: readonly number[] = [1_000, 15_000];

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

/** Where Redis keeps a hook signature as used, for its window (firstUse, and a held purge's on replay). */
function signatureKey(prefix: string, signature: string): string {
  return `${prefix}:purge:signature:${signature}`;
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
  /**
   * This instance's id and how it drops its own L1 copies; null for the CLI, which has no L1. An instance holds
   * the purges it cannot make through Redis (after its own L1 and the edges) and replays them once Redis answers;
   * the CLI fails instead.
   */
  self: { id: string; purgeLocal: (selectors: readonly PurgeSelector[], build: string) => Promise<LocalPurge> } | null;
  /** A held purge was replayed (its record), or a replay failed (Redis gone again: retried). */
  onReplay?: (record: PurgeRecord | null, error?: unknown) => void;
  edges?: { purge(order: EdgePurgeOrder): Promise<EdgeAck[]> } | null;
  /** The edges' answers to a follow-up purge (EDGE_FOLLOW_UPS_MS), for the log: nobody waits for them. */
  onEdgeFollowUp?: (acks: readonly EdgeAck[]) => void;
  ackTimeoutMs?: number;
  /** This instance's record of purges (purge-clock.ts); the CLI has none. */
  clock?: PurgeClock;
  /** The other instances reached without Redis (peer-purge.ts): a held purge goes to them straight. */
  peers?: PeerPurger | null;
  /** Only this build's entries (the CLI's --build); default every build. */
  buildId?: string;
}

export interface PurgeOrderInput {
  /** The CMS's id of the event, recorded with the purge. */
  event?: string;
  /** The hook call's signature (firstUse): carried with the purge, so every instance that applies it refuses it again. */
  signature?: UsedSignature;
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
  /**
   * Signatures this instance has seen (its own hook calls and every purge it applied), until when they are kept:
   * asked before Redis, so a call refused once stays refused through an outage and a Redis that came back empty.
   */
  private readonly usedSignatures = new Map<string, number>();
  private readonly space: PurgeSpace;
  /** Purges made while Redis could not be reached, oldest first: replayed in this order once it answers. */
  private readonly held: Array<{ purge: PurgeAnnouncement; order: RunOrder; started: number }> = [];
  private replaying: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly followUps = new Set<NodeJS.Timeout>();
  /** Where this instance is in the purge log: the last entry it heard of, in the log named `epoch`. */
  private log: { epoch: string; lastId: string } | null = null;
  /** False from a lost subscription until the catch-up: what is heard meanwhile does not move `log` past a gap. */
  private listening = false;
  /** Purges applied here lately (made, heard or caught up), so that none is applied twice. */
  private readonly applied = new RecentIds(10_000);
  private readonly onReady = (): void => void this.replayHeld();

  constructor(private readonly options: PurgesOptions) {
    // Every build of the prefix unless told otherwise: during a rolling deploy the old build's pages are just as wrong.
    this.space = { prefix: options.prefix, buildId: options.buildId ?? '*' };
    if (this.holds()) options.client?.on('ready', this.onReady);
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
   * edges (by `edge`'s tags and URLs and the pages found), and recorded. An instance that cannot reach Redis (or
   * still holds purges from when it could not) purges its own L1 and the edges now and holds the rest, in order.
   */
  async run(selectors: readonly PurgeSelector[], order: RunOrder): Promise<PurgeRecord> {
    const started = Date.now();
    for (const selector of selectors) validate(selector, this.space);
    const announced = [...selectors, ...(await this.answersBehind(selectors))];
    const purge: PurgeAnnouncement = {
      id: randomUUID(),
      selectors: announced,
      build: this.space.buildId,
      soft: order.soft,
      ...(order.signature ? { signature: order.signature } : {}),
    };
    this.options.clock?.note(purge, started);
    // This instance's L1 first, so its acknowledgement counts the copies it held: the shared purge drops them too
    // (the store is tiered), and any a read refilled from Redis in between.
    const local = await this.purgeOwn(purge);
    if (!this.holds()) return this.carryOut(purge, order, started, local);
    // Held purges first: a purge never overtakes one made before it.
    await this.replayHeld();
    if (this.held.length === 0 && this.options.store.isAvailable()) {
      try {
        return await this.carryOut(purge, order, started, local);
      } catch (error) {
        if (!this.redisFailed(error)) throw error;
      }
    }
    return this.hold(purge, order, started, local);
  }

  private purgeOwn(purge: PurgeAnnouncement): Promise<LocalPurge> {
    return this.options.self ? this.options.self.purgeLocal(purge.selectors, purge.build) : Promise.resolve({ entries: 0, keys: [] });
  }

  /**
   * The data answers behind the pages the URL selectors name, as key selectors (invalidation.ts), read from the
   * shared store; none when it cannot answer (Redis down: each L1 purge still finds those of the pages it holds).
   */
  private async answersBehind(selectors: readonly PurgeSelector[]): Promise<PurgeSelector[]> {
    if (!selectors.some((selector) => selector.by === 'url')) return [];
    if (!this.options.store.isAvailable()) return [];
    const invalidator = new Invalidator(this.options.store, this.space);
    try {
      const found = await Promise.all(selectors.map((selector) => invalidator.answersBehind(selector)));
      return [...new Set(found.flat())].map((key): PurgeSelector => ({ by: 'key', key }));
    } catch {
      return [];
    }
  }

  /** The whole purge: the shared store, the log and every instance, the shared store again, the edges, the history. */
  private async carryOut(purge: PurgeAnnouncement, order: RunOrder, started: number, local: LocalPurge, replayed = false): Promise<PurgeRecord> {
    const { selectors, id } = purge;
    const own = this.options.self ? [{ id: this.options.self.id, entries: local.entries }] : [];
    const { entries, pageUrls } = await this.purgeShared(selectors, order.soft);
    // Noted again now that this instance's L1 and the shared store are purged: a load or render begun while they
    // were being purged may have read an old copy, and must not store what it built (purge-clock.ts).
    this.options.clock?.note(purge);
    this.applied.add(id);
    // A held purge's signature never reached Redis: the instances that missed the call refuse it from now on.
    if (replayed && purge.signature) await this.shareSignature(purge.signature);
    if (this.options.client) await appendPurge(this.options.client, this.options.prefix, purge, this.options.self?.id ?? 'cli');
    const others = await this.acknowledgements(id);
    // Once every instance knows of the purge, nothing begun before it is stored any more; what such a load or
    // render stored in between (on an instance that had not heard yet) goes now.
    if (this.options.client) await this.purgeShared(selectors, order.soft);
    // The edges after the portal: an edge refetching before the portal had dropped its copy would store it again.
    // With the URLs of the pages the portal found: a page whose Surrogate-Key had no room for an item's key
    // (tags.ts MAX_SURROGATE_KEY_BYTES) is reached by its address.
    const edges = await this.purgeEdges(order.tags, edgeUrlsOf(selectors, pageUrls), order.soft);
    const record: PurgeRecord = {
      ...this.recordOf(purge, order, started),
      entries,
      instances: { acknowledged: [...own, ...others.acknowledged], missing: others.missing },
      edges,
      ...(replayed ? { replayedAt: new Date().toISOString() } : {}),
      ms: Date.now() - started,
    };
    await this.remember(record);
    return record;
  }

  /**
   * Redis cannot be reached: this instance's L1, then every other instance straight (peer-purge.ts), then the
   * edges, which would otherwise refetch a peer's old copy; the rest (Redis, the log) once Redis answers. The
   * record names exactly what was not reached; the edges' follow-ups send the purge to the peers again first.
   */
  private async hold(purge: PurgeAnnouncement, order: RunOrder, started: number, local: LocalPurge): Promise<PurgeRecord> {
    const self = this.options.self!;
    this.applied.add(purge.id);
    // Noted again now that this instance's L1 is purged: what began while it was being purged may have read it.
    this.options.clock?.note(purge);
    const peers = this.options.peers;
    const reached = peers ? await peers.purge(purge) : { acknowledged: [], missing: [] };
    const again = peers ? () => peers.purge(purge).then(() => undefined) : undefined;
    const edges = await this.purgeEdges(order.tags, edgeUrlsOf(purge.selectors, local.keys.flatMap(pageUrlOf)), order.soft, again);
    this.held.push({ purge, order, started });
    this.retryTimer ??= setInterval(() => void this.replayHeld(), REPLAY_RETRY_MS).unref();
    const record: PurgeRecord = {
      ...this.recordOf(purge, order, started),
      entries: 0,
      instances: { acknowledged: [{ id: self.id, entries: local.entries }, ...reached.acknowledged], missing: reached.missing },
      edges,
      unreached: reached.missing.length > 0 ? ['redis', 'instances'] : ['redis'],
      ms: Date.now() - started,
    };
    this.rememberLocally(record);
    return record;
  }

  /** Replays the held purges, oldest first, while Redis answers; one replay at a time. */
  private replayHeld(): Promise<void> {
    if (this.held.length === 0) return Promise.resolve();
    this.replaying ??= this.replayInOrder().finally(() => (this.replaying = null));
    return this.replaying;
  }

  private async replayInOrder(): Promise<void> {
    while (this.held.length > 0 && this.options.store.isAvailable()) {
      const next = this.held[0]!;
      // What began before the replay may have read what Redis held through the outage: not stored.
      this.options.clock?.note(next.purge);
      try {
        this.options.onReplay?.(await this.carryOut(next.purge, next.order, next.started, await this.purgeOwn(next.purge), true));
      } catch (error) {
        this.options.onReplay?.(null, error);
        return;
      }
      this.held.shift();
    }
    if (this.held.length === 0 && this.retryTimer) {
      clearInterval(this.retryTimer);
      this.retryTimer = null;
    }
  }

  /** Purges made while Redis could not be reached and not yet replayed. */
  get heldCount(): number {
    return this.held.length;
  }

  /**
   * Runs this instance's part of a purge with the purge noted on its clock before and after it: a load or render
   * begun before it may read an old copy and must not store it (the first note), and so may one begun while it
   * runs, before the old copy is gone (the second).
   */
  private async noted<T>(purge: NotedPurge, work: () => Promise<T>): Promise<T> {
    this.options.clock?.note(purge);
    try {
      return await work();
    } finally {
      this.options.clock?.note(purge);
    }
  }

  /** This instance's part of a purge announced by another: drop the L1 copies, then say so. */
  async acknowledge(announcement: PurgeAnnouncement): Promise<void> {
    const { self, client, prefix } = this.options;
    if (!self) return;
    this.applied.add(announcement.id);
    this.keepSignature(announcement.signature);
    const { entries } = await this.noted(announcement, () => self.purgeLocal(announcement.selectors, announcement.build));
    if (!client) return;
    const key = ackKey(prefix, announcement.id);
    await client.hset(key, self.id, String(entries));
    await client.pexpire(key, 60_000);
  }

  /** A purge announcement was heard (the bus, in the log's order): this instance is that far in the log. */
  heard(logId: string): void {
    if (!this.listening || !this.log || compareLogIds(logId, this.log.lastId) <= 0) return;
    this.log.lastId = logId;
  }

  /** The subscription was lost: announcements may be missed until the next catch-up. */
  stoppedListening(): void {
    this.listening = false;
  }

  /**
   * Subscribed again: applies to this instance's L1 every purge the log holds that it did not hear, and purges
   * the edges again for them (an edge may have refetched this instance's old copy meanwhile). Resolves true when
   * every purge it could have missed is known; false when that cannot be told (its first subscription, a log
   * trimmed past its place), and L1 should then be emptied.
   */
  async catchUp(): Promise<boolean> {
    const { client, prefix } = this.options;
    if (!client || !this.options.self) return false;
    const epoch = await purgeLogEpoch(client, prefix);
    const known = this.log;
    if (!known) {
      this.log = { epoch, lastId: await purgeLogTail(client, prefix) };
      this.listening = true;
      return false;
    }
    // A log of another epoch: Redis came back without its data, and its whole log is what was purged since.
    const after = known.epoch === epoch ? known.lastId : '0-0';
    const { entries, complete } = await purgeLogSince(client, prefix, after);
    await this.applyLogged(entries);
    this.log = { epoch, lastId: entries.at(-1)?.logId ?? after };
    this.listening = true;
    return complete;
  }

  /** The purges of the log this instance has not applied: its L1, then the edges (hard and soft apart). */
  private async applyLogged(entries: readonly LoggedPurge[]): Promise<void> {
    const self = this.options.self!;
    const edgeOrders = { hard: { tags: [] as string[], urls: [] as string[] }, soft: { tags: [] as string[], urls: [] as string[] } };
    for (const { purge } of entries) {
      this.keepSignature(purge.signature);
      if (this.applied.has(purge.id)) continue;
      this.applied.add(purge.id);
      const local = await this.noted(purge, () => self.purgeLocal(purge.selectors, purge.build));
      const edgeOrder = purge.soft ? edgeOrders.soft : edgeOrders.hard;
      edgeOrder.tags.push(...tagsOf(purge.selectors));
      edgeOrder.urls.push(...edgeUrlsOf(purge.selectors, local.keys.flatMap(pageUrlOf)));
    }
    for (const [mode, edgeOrder] of Object.entries(edgeOrders)) {
      if (edgeOrder.tags.length + edgeOrder.urls.length > 0) await this.purgeEdges(edgeOrder.tags, edgeOrder.urls, mode === 'soft');
    }
  }

  /**
   * A purge sent straight by an instance that cannot reach Redis (peer-purge.ts): this instance's L1 copies dropped
   * (and Redis's, when this instance reaches it), its clock and its record of signatures told. The L1 copies it dropped; 0 for a purge it has applied already.
   */
  async acknowledgeDirect(announcement: PurgeAnnouncement): Promise<number> {
    const self = this.options.self;
    this.keepSignature(announcement.signature);
    if (!self || this.applied.has(announcement.id)) return 0;
    this.applied.add(announcement.id);
    const { entries } = await this.noted(announcement, async () => {
      const local = await self.purgeLocal(announcement.selectors, announcement.build);
      // The sender could not reach Redis and this instance can (a partition cut the sender off alone): Redis too,
      // or its old copy would come back into this L1 once the clock has forgotten the purge. The replay repeats it.
      if (this.options.client && this.options.store.isAvailable())
        await this.purgeShared(announcement.selectors, announcement.soft === true).catch(() => undefined);
      return local;
    });
    return entries;
  }

  /**
   * True the first time a hook signature is seen (kept twice the signature tolerance): a captured call sent again
   * is refused even inside the tolerance. This instance's own record is asked first (it holds the signatures of
   * every purge it applied, so one used during an outage or before Redis came back empty stays used), then Redis,
   * which tells the instances apart when it answers.
   */
  async firstUse(signature: string, keepSeconds: number): Promise<boolean> {
    const { client, prefix } = this.options;
    const until = Date.now() + keepSeconds * 1000;
    if (this.seenHere(signature)) return false;
    if (client && this.options.store.isAvailable()) {
      try {
        const first = (await client.set(signatureKey(prefix, signature), '1', 'EX', keepSeconds, 'NX')) === 'OK';
        this.keepSignature({ value: signature, until });
        return first;
      } catch (error) {
        if (!this.holds() || !this.redisFailed(error)) throw error;
      }
    } else if (client && !this.holds()) {
      throw new Error('redis is not connected');
    }
    this.keepSignature({ value: signature, until });
    return true;
  }

  private seenHere(signature: string): boolean {
    const now = Date.now();
    for (const [seen, until] of this.usedSignatures) if (until < now) this.usedSignatures.delete(seen);
    return this.usedSignatures.has(signature);
  }

  private keepSignature(signature: UsedSignature | undefined): void {
    if (!signature || signature.until < Date.now()) return;
    this.usedSignatures.set(signature.value, Math.max(signature.until, this.usedSignatures.get(signature.value) ?? 0));
  }

  /** A signature used while Redis was away, written there for the rest of its window. */
  private async shareSignature(signature: UsedSignature): Promise<void> {
    const left = signature.until - Date.now();
    if (!this.options.client || left <= 0) return;
    await this.options.client.set(signatureKey(this.options.prefix, signature.value), '1', 'PX', left, 'NX');
  }

  /** The newest purges first (with Redis unreachable, the ones this instance holds). */
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

  close(): void {
    this.options.client?.off('ready', this.onReady);
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = null;
    for (const timer of this.followUps) clearTimeout(timer);
    this.followUps.clear();
  }

  /** An instance with Redis holds what it cannot purge there; the CLI and a portal without Redis do not. */
  private holds(): boolean {
    return this.options.self !== null && this.options.client !== null;
  }

  /** Redis did not answer (down, not connected, timed out), as opposed to anything else going wrong. */
  private redisFailed(error: unknown): boolean {
    if (!this.options.store.isAvailable()) return true;
    return error instanceof Error && REDIS_UNREACHABLE.test(error.message);
  }

  private recordOf(
    purge: PurgeAnnouncement,
    order: RunOrder,
    started: number,
  ): Pick<PurgeRecord, 'id' | 'at' | 'who' | 'source' | 'what' | 'tags' | 'urls' | 'soft'> {
    const { who, source, what } = order;
    return { id: purge.id, at: new Date(started).toISOString(), who, source, what, tags: [...order.tags], urls: [...order.urls], soft: order.soft };
  }

  /**
   * Each edge's answer; an item's purge reaches too the pages whose Surrogate-Key had no room for its key (tags.ts
   * edgeTagsOf). `before`: what each follow-up does first (a held purge sends itself to the peers again).
   */
  private async purgeEdges(tags: readonly string[], urls: readonly string[], soft: boolean, before?: () => Promise<void>): Promise<EdgeAck[]> {
    const edges = this.options.edges;
    if (!edges) return [];
    const order: EdgePurgeOrder = { tags: edgeTagsOf(tags), urls: [...new Set(urls)].slice(0, MAX_EDGE_URLS), soft };
    const acks = await edges.purge(order);
    // The CLI exits once it has answered: only a running instance follows up.
    const followUp = before ? () => before().then(() => edges.purge(order)) : () => edges.purge(order);
    if (this.options.self) for (const delay of EDGE_FOLLOW_UPS_MS) this.followUp(followUp, delay);
    return acks;
  }

  private followUp(purge: () => Promise<EdgeAck[]>, delayMs: number): void {
    const timer = setTimeout(() => {
      this.followUps.delete(timer);
      void purge().then(
        (acks) => this.options.onEdgeFollowUp?.(acks),
        () => undefined,
      );
    }, delayMs).unref();
    this.followUps.add(timer);
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
    const instances = liveInstances(await announcedInstances(client, prefix));
    // Kept for an outage: the instances a held purge is sent to straight when Redis cannot list them.
    this.options.peers?.rememberInstances(instances);
    const expected = instances.map((instance) => instance.id).filter((instanceId) => instanceId !== self?.id);
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
      this.rememberLocally(record);
      return;
    }
    await client.lpush(historyKey(prefix), JSON.stringify(record));
    await client.ltrim(historyKey(prefix), 0, HISTORY_LENGTH - 1);
  }

  private rememberLocally(record: PurgeRecord): void {
    this.localHistory.unshift(record);
    this.localHistory.length = Math.min(this.localHistory.length, HISTORY_LENGTH);
  }
}

type RunOrder = PurgeOrderInput & Pick<PurgeRecord, 'who' | 'source' | 'what'>;

/** How often held purges are tried again while Redis is away (besides at once when it reconnects). */
const REPLAY_RETRY_MS = 1000;

/** ioredis's words for a Redis it could not reach or that did not answer in time. */
const REDIS_UNREACHABLE = /timed out|Connection is closed|isn't writeable|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|max retries|CLUSTERDOWN|LOADING/i;

/** The last `limit` ids added, for membership. */
class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly limit: number) {}

  add(id: string): void {
    this.ids.add(id);
    if (this.ids.size > this.limit) this.ids.delete(this.ids.values().next().value!);
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }
}

/**
 * The announced instances less those a newer one replaced at the same address: an instance killed without
 * withdrawing its announcement (a crash) stays listed until the key expires, but whatever answers at its address
 * now is its successor, and a purge waiting for the dead one's acknowledgement would read as partial for nothing.
 */
export function liveInstances<T extends { id: string; url: string; startedAt: string }>(instances: readonly T[]): T[] {
  const newest = new Map<string, T>();
  for (const instance of instances) {
    const known = newest.get(instance.url);
    if (!known || known.startedAt < instance.startedAt) newest.set(instance.url, instance);
  }
  return instances.filter((instance) => newest.get(instance.url) === instance);
}

/** The tags a purge's selectors name. */
function tagsOf(selectors: readonly PurgeSelector[]): string[] {
  return selectors.flatMap((selector) => (selector.by === 'tag' ? [selector.tag] : []));
}

/**
 * Each URL as the edge files it (`path:` + the reader's Host + the path): the site's own domain and the path's
 * canonical spelling, not the text the caller typed (`https://www.qnnews.cn:8443/a/../about`, `…cn./about`), and
 * the pages the portal found.
 */
function edgeUrlsOf(selectors: readonly PurgeSelector[], pageUrls: readonly string[]): string[] {
  return [...new Set([...selectors.flatMap(edgeUrlOf), ...pageUrls])];
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
