/**
 * ContentApi over the upstream client and the data cache. Each call has a cache key, a policy family and the
 * tags it depends on; what a page's calls did (cache states, tags, upstream time, degradation) is recorded per
 * request so the page can say how it was served and whether it may be cached.
 */
import type { ContentApi } from '../../shared/content-api';
import { ContentUnavailableError } from '../../shared/content-api';
import type { z } from 'zod';
import type { Cache, CacheState, Codec, Loaded } from '../cache/cache';
import { checkedJsonCodec } from '../cache/cache';
import type { CachePolicy, EntryValue } from '../cache/entry';
import type { KeySpace } from '../cache/keys';
import { ALL_SITES_SEGMENT, cacheKey } from '../cache/keys';
import { DATA_POLICY, NOT_FOUND_POLICY, UPSTREAM_NOT_FOUND_CODE } from '../cache/policy';
import type { PolicySource } from '../cache/runtime-policy';
import { articleCalls } from './content-calls/articles';
import type { Call, CallSpec } from './content-calls/call';
import { decorationCalls } from './content-calls/decoration';
import { mediaCalls } from './content-calls/media';
import { navigationCalls } from './content-calls/navigation';
import { topicCalls } from './content-calls/topics';
import type { UpstreamClient } from './http-client';
import { PREVIEW_HEADER, PREVIEW_HEADER_VALUE } from '../preview/contract';

/** What one page's content calls did. */
export class CallRecorder {
  readonly tags = new Set<string>();
  /** The data keys answered: what a page stored from this render was built from (CacheEntry.reads). */
  readonly reads = new Set<string>();
  readonly states: CacheState[] = [];
  upstreamMs = 0;
  degraded = false;

  /**
   * A background re-render of a stale page (no reader waits for it) reloads stale answers before rendering
   * instead of using them: otherwise the page is stored fresh with what the CMS said a whole grace ago, and a flag
   * such as grey mode takes the page's TTL, the answer's TTL and its grace to show (docs/cache.md).
   */
  constructor(readonly revalidateStale = false) {}

  /** When the page's render began. */
  readonly startedAt = Date.now();
  /**
   * How old what the render read may be: its start, or earlier when a call joined a load already running. A purge
   * made since then keeps the page from being stored (purge-clock.ts).
   */
  readsFrom = this.startedAt;

  /** `loadStartedAt`: a MISS's load began then (Cache's Served), maybe before this render. */
  record(key: string, state: CacheState, tags: readonly string[], loadStartedAt?: number): void {
    this.reads.add(key);
    this.states.push(state);
    for (const tag of tags) this.tags.add(tag);
    if (loadStartedAt !== undefined && loadStartedAt < this.readsFrom) this.readsFrom = loadStartedAt;
  }

  /** Adds what another recorder saw (a page's loader calls recorded apart from its layout calls). */
  absorb(other: CallRecorder): void {
    for (const state of other.states) this.states.push(state);
    for (const tag of other.tags) this.tags.add(tag);
    for (const key of other.reads) this.reads.add(key);
    if (other.readsFrom < this.readsFrom) this.readsFrom = other.readsFrom;
    this.upstreamMs += other.upstreamMs;
    this.degraded ||= other.degraded;
  }

  /** HIT only if every call was a hit; STALE if any was stale; otherwise MISS. */
  get summary(): CacheState {
    if (this.states.includes('MISS')) return 'MISS';
    if (this.states.includes('STALE')) return 'STALE';
    return 'HIT';
  }
}

/**
 * What a failed call (no answer and nothing held) does: 'throw' for a page's own data, so the page is a 503
 * rather than an empty or 'not found' page; 'empty' for the blocks around it (layout, sidebars), which render
 * empty. Either way the page is marked degraded and is not stored.
 */
export type OnCallFailure = 'throw' | 'empty';

export interface ContentServiceOptions {
  upstream: UpstreamClient;
  cache: Cache;
  keys: KeySpace;
  /** TTL/grace per call family; the run-time policy (operators can change it), or the defaults in code. */
  policy?: PolicySource;
  onUpstreamError?: (call: string, error: unknown) => void;
  /** The upstream answered a call (a success or the CMS's not-found): the call family works (again). */
  onUpstreamAnswer?: (call: string) => void;
}

/** One codec per stored shape, so a value held in L1 is decoded and checked once (cache.ts keeps them per codec). */
const codecs = new WeakMap<object, Codec<unknown>>();

function codecOf<T>(stored: z.ZodType<T, unknown>): Codec<T> {
  let codec = codecs.get(stored);
  if (!codec) codecs.set(stored, (codec = checkedJsonCodec(stored) as Codec<unknown>));
  return codec as Codec<T>;
}

export class ContentService {
  constructor(private readonly options: ContentServiceOptions) {}

  /**
   * A ContentApi whose calls are recorded into `recorder`: every call described by one of the call modules
   * (content-calls/), each run by `call` below.
   */
  forRequest(recorder: CallRecorder, onFailure: OnCallFailure = 'empty'): ContentApi {
    return contentApiOf(<Raw, T>(spec: CallSpec<Raw, T>) => this.call(spec, recorder, onFailure));
  }

  /**
   * A ContentApi for an editor's preview (docs/preview.md): every call asks the content API for drafts
   * (PREVIEW_HEADER) and goes past the data cache both ways, so a draft is never stored and a stored answer never
   * shown in its place. Its calls are recorded as misses; a preview is never stored (it renders as PASS).
   */
  forPreview(recorder: CallRecorder, onFailure: OnCallFailure = 'empty'): ContentApi {
    return contentApiOf(<Raw, T>(spec: CallSpec<Raw, T>) => this.callForPreview(spec, recorder, onFailure));
  }

  /**
   * A call's answer read from the upstream now, past the data cache, and stored there; with the value the cache
   * held before (null: none it could read). The flag watch (flag-watch.ts) compares the two.
   */
  async reload<Raw, T>(spec: CallSpec<Raw, T>): Promise<{ held: T | null; now: T }> {
    const key = this.keyOf(spec);
    const codec = codecOf(spec.stored);
    const entry = await this.options.cache.peek(key);
    const held = entry ? decodedOrNull(codec, entry.value) : null;
    let loaded: Loaded<T>;
    const startedAt = Date.now();
    try {
      loaded = await this.load(spec, new CallRecorder());
    } catch (error) {
      this.options.onUpstreamError?.(spec.request.call, error);
      throw error;
    }
    await this.options.cache.put(key, this.policyOf(spec), loaded, codec, startedAt);
    return { held, now: loaded.value };
  }

  private keyOf(spec: Pick<CallSpec<unknown, unknown>, 'key'>): string {
    return cacheKey(this.options.keys, 'data', ALL_SITES_SEGMENT, spec.key);
  }

  private policyOf(spec: Pick<CallSpec<unknown, unknown>, 'family'>): CachePolicy {
    return this.options.policy?.data(spec.family) ?? DATA_POLICY[spec.family];
  }

  private async call<Raw, T>(spec: CallSpec<Raw, T>, recorder: CallRecorder, onFailure: OnCallFailure): Promise<T> {
    const key = this.keyOf(spec);
    try {
      const policy = this.policyOf(spec);
      const served = await this.options.cache.getOrLoad<T>(key, policy, () => this.load(spec, recorder), codecOf(spec.stored), {
        revalidate: recorder.revalidateStale,
        // Every wait of this render on another instance's lock counts from its start: one budget for the page.
        waitFrom: recorder.startedAt,
        withdraw: (value, gone) => withoutWithdrawn(spec, value, gone),
      });
      recorder.record(key, served.state, served.tags, served.loadStartedAt);
      // Served past grace because the upstream failed: right for this reader, but nothing built on it is cacheable.
      if (served.staleIfError) recorder.degraded = true;
      return served.value;
    } catch (error) {
      return this.failed(spec, error, recorder, onFailure);
    }
  }

  private async callForPreview<Raw, T>(spec: CallSpec<Raw, T>, recorder: CallRecorder, onFailure: OnCallFailure): Promise<T> {
    const request = { ...spec.request, headers: { ...spec.request.headers, [PREVIEW_HEADER]: PREVIEW_HEADER_VALUE } };
    try {
      const loaded = await this.load({ ...spec, request }, recorder);
      recorder.record(this.keyOf(spec), 'MISS', loaded.tags);
      return loaded.value;
    } catch (error) {
      return this.failed(spec, error, recorder, onFailure);
    }
  }

  /** A call with no answer and nothing held: its empty value, or ContentUnavailableError where the page needs it. */
  private failed<Raw, T>(spec: CallSpec<Raw, T>, error: unknown, recorder: CallRecorder, onFailure: OnCallFailure): T {
    this.options.onUpstreamError?.(spec.request.call, error);
    recorder.degraded = true;
    const fails = spec.required === true || (onFailure === 'throw' && spec.decoration !== true);
    if (fails) throw new ContentUnavailableError(spec.request.call);
    return spec.empty;
  }

  /**
   * Loads from upstream. Only the CMS's 'not found' is an answer without data; everything else that is not a
   * well-formed success (no answer, an HTTP error, an answer too large or of the wrong shape, any other non-zero
   * code such as 50001 系统繁忙) is a failure and throws, so a held entry is served past grace (stale-if-error)
   * and a required call with nothing held makes the page a 503, never a 404 or an empty page.
   */
  private async load<Raw, T>(spec: CallSpec<Raw, T>, recorder: CallRecorder): Promise<Loaded<T>> {
    // Every content call reads, POST or GET: a stale kept-alive socket is retried (server/upstream/http-client.ts).
    // Only 'not found' is an answer among the CMS's codes: any other is counted as a failed call (cms-error).
    const result = await this.options.upstream.request({ ...spec.request, readOnly: true, answerCodes: [UPSTREAM_NOT_FOUND_CODE] }, spec.schema);
    // The call family is a tag too, so an operator can purge e.g. every list answer and the pages built on them.
    const tags = [...spec.tags, `data:${spec.family}`];
    recorder.upstreamMs += result.durationMs;
    const answered = result.outcome === 'ok' || (result.outcome !== 'unavailable' && result.envelope.code === UPSTREAM_NOT_FOUND_CODE);
    if (answered) this.options.onUpstreamAnswer?.(spec.request.call);
    if (result.outcome === 'ok') {
      const value = await spec.normalise(result.envelope.data);
      return { value, cacheable: true, tags: spec.shows ? [...tags, ...spec.shows(value)] : tags };
    }
    if (result.outcome === 'unavailable') throw new UpstreamUnavailable(spec.request.call, result.reason ?? result.envelope.msg);
    const { code, msg } = result.envelope;
    if (code !== UPSTREAM_NOT_FOUND_CODE) throw new UpstreamUnavailable(spec.request.call, `code ${code}: ${msg}`);
    // Negative caching: kept for NOT_FOUND_POLICY's short ttl only (an editor may be about to publish it).
    return { value: spec.empty, cacheable: true, tags: [...tags, 'not-found'], policy: NOT_FOUND_POLICY };
  }
}

/**
 * Every call of the call modules (content-calls/) over one way of running a call. Object.assign onto the first
 * family's fresh object, not one literal of five spreads: V8 builds that literal of 29 closures through a slow
 * path, 50–66 µs against 1.4 µs, and a render asks for this once or twice. Nested, because TypeScript types
 * Object.assign for at most three sources (with more it returns `any`).
 */
function contentApiOf(call: Call): ContentApi {
  return Object.assign(Object.assign(navigationCalls(call), articleCalls(call), decorationCalls(call)), topicCalls(call), mediaCalls(call));
}

/**
 * A held answer without the items a hard purge withdrew after it was stored (a takedown): a list shows the rest;
 * the item's own answer, or one that cannot say what it shows without them, is not used (a miss).
 */
function withoutWithdrawn<Raw, T>(spec: CallSpec<Raw, T>, value: T, gone: ReadonlySet<string>): T | null {
  if (spec.tags.some((tag) => gone.has(tag))) return null;
  if (!spec.shows || !spec.shows(value).some((key) => gone.has(key))) return value;
  return spec.without ? spec.without(value, gone) : null;
}

function decodedOrNull<T>(codec: Codec<T>, value: EntryValue): T | null {
  try {
    return codec.decode(value);
  } catch {
    return null;
  }
}

export class UpstreamUnavailable extends Error {
  constructor(
    readonly call: string,
    msg: string,
  ) {
    super(`upstream ${call}: ${msg}`);
    this.name = 'UpstreamUnavailable';
  }
}
