/**
 * Redis store (ioredis), on a plain Redis, a Sentinel-watched master or a Redis Cluster (server/redis/). Commands
 * fail fast while disconnected (no offline queue) and have a timeout, so a dead or slow Redis costs a request a
 * few milliseconds, not a hang; ioredis keeps reconnecting in the background and caching resumes on its own
 * when Redis is back. On a cluster an entry and its tag sets usually live on different nodes (a tag set is
 * shared by many entries), so writes and deletes are split per node and per slot, never sent as one.
 */
import { createRedisClient, type RedisClient } from '../redis/client';
import { getInPieces } from '../redis/chunked-get';
import { LuaScript } from '../redis/lua-script';
import { Batches, existingKeys, scanAll, unindexGone, unlinkAll } from '../redis/commands';
import type { RedisStall } from '../redis/stall';
import { parseRedisTarget } from '../platform/redis-target';
import type { CacheEntry } from './entry';
import { retentionMs } from './entry';
import { decodeEntry, encodeEntry } from './entry-codec';
import type { PageForm } from './stored-page';
import { readPageForm, type HeldPageEntry } from './redis-page-read';
import type { CacheStore, IndexedKeys, StaleDepth, StaleMark } from './store';
import { prefixOfKey, tagSetKey } from './tags';

/**
 * A purge's mark of one entry, read and written in one step, its value never sent: 0 nothing there (or not an
 * entry), 1 held as it is (loaded from ARGV[2] on, or that far gone at ARGV[1] already and ARGV[4] noted), 2
 * marked (storedAt moved back by its TTL, or with ARGV[3] 'expired' by its TTL and grace; ARGV[4], a tag, added
 * to its "withdrawn"; the expiry kept). The metadata is the whole JSON (a text entry) or the framed head's
 * (entry-codec.ts: "\0CE1", a u32 length, the metadata JSON); only its top-level "storedAt" and "withdrawn" are
 * rewritten (inside a JSON string a quote is escaped, so no value can match; a tag holds no quote or bracket).
 */
const MARK_STALE = new LuaScript(`
local held = redis.call('GET', KEYS[1])
if not held then return 0 end
local framed = string.sub(held, 1, 4) == '\\0CE1'
local meta, rest = held, ''
if framed then
  local length = struct.unpack('>I4', held, 5)
  meta = string.sub(held, 9, 8 + length)
  rest = string.sub(held, 9 + length)
end
local ok, entry = pcall(cjson.decode, meta)
if not ok or type(entry) ~= 'table' or type(entry.storedAt) ~= 'number' or type(entry.ttl) ~= 'number' then return 0 end
local now = tonumber(ARGV[1])
if type(entry.since) == 'number' and entry.since >= tonumber(ARGV[2]) then return 1 end
local back = entry.ttl * 1000
if ARGV[3] == 'expired' then
  if type(entry.grace) ~= 'number' then return 0 end
  back = (entry.ttl + entry.grace) * 1000
end
local marked = meta
if now - entry.storedAt < back then
  local found
  marked, found = string.gsub(marked, '"storedAt":[-0-9.eE+]+', '"storedAt":' .. string.format('%.0f', now - back), 1)
  if found ~= 1 then return 0 end
end
local tag = ARGV[4]
if tag ~= nil and tag ~= '' then
  local list = {}
  if type(entry.withdrawn) == 'table' then
    for _, noted in ipairs(entry.withdrawn) do
      if noted == tag then tag = nil end
      table.insert(list, noted)
    end
  end
  if tag ~= nil then
    table.insert(list, tag)
    local written = '"withdrawn":' .. cjson.encode(list)
    if type(entry.withdrawn) == 'table' then
      marked = string.gsub(marked, '"withdrawn":%[[^%]]*%]', written, 1)
    else
      marked = '{' .. written .. ',' .. string.sub(marked, 2)
    end
  end
end
if marked == meta then return 1 end
if framed then marked = string.sub(held, 1, 4) .. struct.pack('>I4', #marked) .. marked .. rest end
redis.call('SET', KEYS[1], marked, 'KEEPTTL')
return 2`);

const STALE_MARKS: readonly StaleMark[] = ['gone', 'held', 'marked'];

/** Reports each cache command's operation, duration and outcome (metrics: latency, errors, timeouts). */
export type CommandObserver = (op: string, ms: number, outcome: 'ok' | 'error' | 'timeout') => void;

/** ioredis's error for a command not answered within commandTimeout. */
const TIMED_OUT = 'Command timed out';

/**
 * Runs a command, reporting it to the observer; the answer or the error passes through unchanged. A promise
 * chain, not an async function: every cached hit read from Redis runs through here, and each promise it would
 * add is work at that rate.
 */
export function observed<T>(observer: CommandObserver | undefined, op: string, command: () => Promise<T>): Promise<T> {
  let answer: Promise<T>;
  const started = observer ? performance.now() : 0;
  try {
    answer = command();
  } catch (error) {
    answer = Promise.reject(error as Error);
  }
  if (!observer) return answer;
  return answer.then(
    (value) => {
      observer(op, performance.now() - started, 'ok');
      return value;
    },
    (error: unknown) => {
      observer(op, performance.now() - started, error instanceof Error && error.message === TIMED_OUT ? 'timeout' : 'error');
      throw error;
    },
  );
}

/**
 * A client made elsewhere (the portal's, the CLI's), or a URL to make one from. `stall`: while it says Redis is
 * connected but not answering (stall.ts), the store is unavailable: reads miss and writes are skipped at once.
 */
export type RedisStoreOptions =
  { client: RedisClient; onCommand?: CommandObserver; stall?: RedisStall } | { url: string; commandTimeoutMs?: number; onError?: (error: Error) => void };

export class RedisStore implements CacheStore {
  readonly kind = 'redis' as const;
  readonly client: RedisClient;
  private readonly onCommand: CommandObserver | undefined;
  readonly stall: RedisStall | undefined;

  constructor(options: RedisStoreOptions) {
    if ('client' in options) {
      this.client = options.client;
      this.onCommand = options.onCommand;
      this.stall = options.stall;
      return;
    }
    this.onCommand = undefined;
    this.stall = undefined;
    this.client = createRedisClient(parseRedisTarget(options.url), { role: 'portal', commandTimeoutMs: options.commandTimeoutMs ?? 500 });
    // Without a listener ioredis reports every failed reconnect as an unhandled 'error' event.
    this.client.on('error', (error: Error) => options.onError?.(error));
  }

  get(key: string): Promise<CacheEntry | null> {
    if (!this.isAvailable()) return Promise.resolve(null);
    // As bytes: page entries are binary (entry-codec.ts); in pieces, since a page is tens of KiB (chunked-get.ts).
    // decodeEntry never throws.
    return observed(this.onCommand, 'get', () => this.watched(getInPieces(this.client, key))).then(
      (raw) => (raw === null ? null : decodeEntry(raw)),
      () => null,
    );
  }

  getPageForm(key: string, form: PageForm): Promise<HeldPageEntry | null> {
    if (!this.isAvailable()) return Promise.resolve(null);
    return observed(this.onCommand, 'get', () => this.watched(readPageForm(this.client, key, form))).catch(() => null);
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    if (!this.isAvailable()) return;
    const retention = retentionMs(entry);
    const prefix = prefixOfKey(key);
    try {
      const batches = new Batches(this.client);
      batches.for(key).set(key, encodeEntry(entry), 'PX', retention);
      for (const tag of entry.tags) {
        const setKey = tagSetKey(prefix, tag);
        // The set lives as long as its longest-lived member: NX gives a new set an expiry, GT only extends it.
        batches.for(setKey).sadd(setKey, key).pexpire(setKey, retention, 'NX').pexpire(setKey, retention, 'GT');
      }
      await observed(this.onCommand, 'set', () => this.watched(batches.exec()));
    } catch {
      // A cache write that fails is a future miss, nothing more.
    }
  }

  async markStale(key: string, now: number, loadsFrom: number, depth: StaleDepth = 'stale', withdrawn = ''): Promise<StaleMark> {
    if (!this.isAvailable()) throw new Error('Redis did not answer the marks of the purge');
    const outcome = await observed(this.onCommand, 'set', () => this.watched(MARK_STALE.runOnKey(this.client, key, now, loadsFrom, depth, withdrawn)));
    return STALE_MARKS[Number(outcome)] ?? 'gone';
  }

  async delete(key: string): Promise<void> {
    if (!this.isAvailable()) return;
    try {
      await this.client.del(key);
    } catch {
      // As for set.
    }
  }

  async keysMatching(glob: string): Promise<string[]> {
    return scanAll(this.client, glob);
  }

  async keysWithTag(prefix: string, tag: string): Promise<string[]> {
    return this.client.smembers(tagSetKey(prefix, tag));
  }

  /** EXISTS, not GET: a tag of a headline on every page names hundreds of pages, tens of KiB each. */
  existing(keys: readonly string[]): Promise<string[]> {
    return existingKeys(this.client, keys);
  }

  async deleteKeys(keys: readonly string[], unindex?: IndexedKeys): Promise<number> {
    // UNLINK frees memory in the background: a large purge does not stall other clients.
    const deleted = await unlinkAll(this.client, keys);
    for (const tag of unindex?.tags ?? []) await unindexGone(this.client, tagSetKey(unindex!.prefix, tag), unindex!.keys);
    return deleted;
  }

  /** Connected, and not stalled (a command timed out and nothing has answered since: stall.ts). */
  isAvailable(): boolean {
    return this.client.status === 'ready' && this.stall?.stalled !== true;
  }

  /** A command whose timeout starts a stall and whose answer ends one. */
  private watched<T>(command: Promise<T>): Promise<T> {
    return this.stall ? this.stall.watch(command) : command;
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
