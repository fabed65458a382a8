/**
 * A purge carried out everywhere a page can be held, and recorded (docs/cache.md "Purges"): the shared store
 * (Redis, or the one in-process store), every instance's L1 by selector (announced on the coherence bus, so a
 * copy is dropped whether or not Redis still holds its key), then the edges (Varnish) in front. Whoever purges,
 * the publish hook or `portal-cache purge`, waits until every announced instance has acknowledged, names those
 * that did not, and writes one record to the purge history. An instance that cannot reach Redis holds the purge
 * and replays it in order; one that lost its subscription catches up from the purge log. Their parts, one job a
 * file: purge-order.ts (what is asked), purge-acks.ts (which instances applied it), purge-edges.ts (what the
 * edges get, and when), used-signatures.ts (a hook call sent again), purge-record.ts (the history).
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis/client';
import type { EdgeAck, EdgePurgeOrder } from './edge-purge';
import { announcedInstances } from './instances';
import type { PurgeAnnouncement } from './coherence';
import type { PeerPurger } from './peer-purge';
import { ackKey, acknowledgementsOf, liveInstances, type InstanceAck } from './purge-acks';
import type { NotedPurge, PurgeClock } from './purge-clock';
import { EdgePurges, edgeUrlsOf, pageUrlOf, tagsOf } from './purge-edges';
import { appendPurge, compareLogIds, purgeLogEpoch, purgeLogSince, purgeLogTail, type LoggedPurge } from './purge-log';
import { selectorsOf, type PurgeOrderInput, type RunOrder } from './purge-order';
import { PurgeHistory, type PurgeRecord } from './purge-record';
import { Invalidator, validate, type PurgeSelector, type PurgeSpace } from './invalidation';
import type { CacheStore } from './store';
import { shareSignature, signatureKey, UsedSignatures } from './used-signatures';

export type { PurgeAnnouncement } from './coherence';

/** What an instance dropped from its own L1: how many, and their keys (pages' URLs go to the edges). */
export interface LocalPurge {
  entries: number;
  keys: string[];
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

export class Purges {
  /**
   * Signatures this instance has seen (its own hook calls and every purge it applied), until when they are kept:
   * asked before Redis, so a call refused once stays refused through an outage and a Redis that came back empty.
   */
  private readonly usedSignatures = new UsedSignatures();
  private readonly records: PurgeHistory;
  private readonly edgePurges: EdgePurges;
  private readonly space: PurgeSpace;
  /** Purges made while Redis could not be reached, oldest first: replayed in this order once it answers. */
  private readonly held: Array<{ purge: PurgeAnnouncement; order: RunOrder; started: number }> = [];
  private replaying: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
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
    this.records = new PurgeHistory(options.client, options.prefix);
    this.edgePurges = new EdgePurges(options.edges ?? null, options.self !== null, options.onEdgeFollowUp);
    if (this.holds()) options.client?.on('ready', this.onReady);
  }

  /** Checks every tag and URL before anything is touched: a bad one is a PurgeInputError and changes nothing. */
  selectorsOf(order: PurgeOrderInput): Promise<PurgeSelector[]> {
    return selectorsOf(order, this.space);
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
    if (replayed && purge.signature) await shareSignature(this.options.client, this.options.prefix, purge.signature);
    if (this.options.client) await appendPurge(this.options.client, this.options.prefix, purge, this.options.self?.id ?? 'cli');
    const others = await this.acknowledgements(id);
    // Once every instance knows of the purge, nothing begun before it is stored any more; what such a load or
    // render stored in between (on an instance that had not heard yet) goes now.
    if (this.options.client) await this.purgeShared(selectors, order.soft);
    // The edges after the portal: an edge refetching before the portal had dropped its copy would store it again.
    // With the URLs of the pages the portal found: a page whose Surrogate-Key had no room for an item's key
    // (tags.ts MAX_SURROGATE_KEY_BYTES) is reached by its address.
    const edges = await this.edgePurges.purge(order.tags, edgeUrlsOf(selectors, pageUrls), order.soft);
    const record: PurgeRecord = {
      ...this.recordOf(purge, order, started),
      entries,
      instances: { acknowledged: [...own, ...others.acknowledged], missing: others.missing },
      edges,
      ...(replayed ? { replayedAt: new Date().toISOString() } : {}),
      ms: Date.now() - started,
    };
    await this.records.remember(record);
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
    const edges = await this.edgePurges.purge(order.tags, edgeUrlsOf(purge.selectors, local.keys.flatMap(pageUrlOf)), order.soft, again);
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
    this.records.rememberLocally(record);
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
    this.usedSignatures.keep(announcement.signature);
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
      this.usedSignatures.keep(purge.signature);
      if (this.applied.has(purge.id)) continue;
      this.applied.add(purge.id);
      const local = await this.noted(purge, () => self.purgeLocal(purge.selectors, purge.build));
      const edgeOrder = purge.soft ? edgeOrders.soft : edgeOrders.hard;
      edgeOrder.tags.push(...tagsOf(purge.selectors));
      edgeOrder.urls.push(...edgeUrlsOf(purge.selectors, local.keys.flatMap(pageUrlOf)));
    }
    for (const [mode, edgeOrder] of Object.entries(edgeOrders)) {
      if (edgeOrder.tags.length + edgeOrder.urls.length > 0) await this.edgePurges.purge(edgeOrder.tags, edgeOrder.urls, mode === 'soft');
    }
  }

  /**
   * A purge sent straight by an instance that cannot reach Redis (peer-purge.ts): this instance's L1 copies dropped
   * (and Redis's, when this instance reaches it), its clock and its record of signatures told. The L1 copies it dropped; 0 for a purge it has applied already.
   */
  async acknowledgeDirect(announcement: PurgeAnnouncement): Promise<number> {
    const self = this.options.self;
    this.usedSignatures.keep(announcement.signature);
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
    if (this.usedSignatures.has(signature)) return false;
    if (client && this.options.store.isAvailable()) {
      try {
        const first = (await client.set(signatureKey(prefix, signature), '1', 'EX', keepSeconds, 'NX')) === 'OK';
        this.usedSignatures.keep({ value: signature, until });
        return first;
      } catch (error) {
        if (!this.holds() || !this.redisFailed(error)) throw error;
      }
    } else if (client && !this.holds()) {
      throw new Error('redis is not connected');
    }
    this.usedSignatures.keep({ value: signature, until });
    return true;
  }

  /** The newest purges first (with Redis unreachable, the ones this instance holds). */
  history(limit: number): Promise<PurgeRecord[]> {
    return this.records.history(limit);
  }

  close(): void {
    this.options.client?.off('ready', this.onReady);
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = null;
    this.edgePurges.close();
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
}

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
