/**
 * Pure rules of the reader interactions (like, collect, subscribe; docs/product.md §4, §5, §7, §8): which call each button
 * makes, how answers are read (code 0 is success; anything else is a failure for a toggle and "nothing known"
 * for a read), the action a visitor asked for before signing in, and the per-group state the buttons show.
 */
import type { Envelope } from './types/envelope';
import type { ApiCall, BatchExistBody, InteractionGroup, InteractionKind, InteractionTarget, ToggleBody } from './types/interactions';

/** The CMS takes at most this many ids in one batch_exist. */
export const BATCH_EXIST_MAX = 100;

const TOGGLE_PATH: Record<InteractionKind, string> = {
  thumbsup: '/api/thumbsup/toggle',
  collection: '/api/collection/toggle',
  collection_video: '/api/collection_video/toggle',
  author: '/api/special_column_author/toggle',
  tag: '/api/tag/toggle',
};

const BATCH_EXIST_PATH: Record<InteractionKind, string> = {
  thumbsup: '/api/thumbsup/batch_exist',
  collection: '/api/collection/batch_exist',
  collection_video: '/api/collection_video/batch_exist',
  author: '/api/column_subscribe/batch_exist',
  tag: '/api/tag/batch_exist',
};

/** What readers see on each kind's button, off and on, and what a failure toast names. */
export const INTERACTION_LABELS: Record<InteractionKind, { off: string; on: string; action: string }> = {
  thumbsup: { off: '点赞', on: '已点赞', action: '点赞' },
  collection: { off: '收藏', on: '已收藏', action: '收藏' },
  collection_video: { off: '收藏', on: '已收藏', action: '收藏' },
  author: { off: '订阅', on: '已订阅', action: '订阅' },
  tag: { off: '订阅', on: '已订阅', action: '订阅' },
};

export const MSG_SIGNED_OUT = '登录已失效，请重新登录';
const CODE_NOT_SIGNED_IN = 40101;

/** The toast after a failed toggle: what failed, in the reader's words (undoing counts as the same action). */
export function failureMessage(kind: InteractionKind, code: number): string {
  if (code === CODE_NOT_SIGNED_IN) return MSG_SIGNED_OUT;
  return `${INTERACTION_LABELS[kind].action}失败，请稍后重试`;
}

export function toggleCall(target: InteractionTarget): ApiCall<ToggleBody> {
  const path = TOGGLE_PATH[target.kind];
  if ('catid' in target) return { method: 'POST', path, body: { catid: target.catid, article_id: target.id } };
  return { method: 'POST', path, body: target.kind === 'tag' ? { tag_id: target.id } : { author_id: target.id } };
}

/** One call for the whole group; null when there is nothing to ask about. */
export function batchExistCall(group: InteractionGroup): ApiCall<BatchExistBody> | null {
  const list = [...new Set(group.ids)].slice(0, BATCH_EXIST_MAX);
  if (list.length === 0) return null;
  const path = BATCH_EXIST_PATH[group.kind];
  return { method: 'POST', path, body: 'catid' in group ? { catid: group.catid, list } : { list } };
}

export function likeCountCall(catid: number, id: number): ApiCall<never> {
  return { method: 'GET', path: `/api/thumbsup/get_num?article_id=${id}&catid=${catid}` };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFlag(value: unknown): value is 0 | 1 {
  return value === 0 || value === 1;
}

/** The mark after a toggle as the CMS reports it; null when the call failed or the answer is not understood. */
export function readToggle(kind: InteractionKind, envelope: Envelope<unknown>): boolean | null {
  if (envelope.code !== 0 || !isRecord(envelope.data)) return null;
  const flag = kind === 'author' || kind === 'tag' ? envelope.data['subscribe_status'] : envelope.data['status'];
  return isFlag(flag) ? flag === 1 : null;
}

/**
 * Each asked id's mark. Null when the call failed (docs/product.md §8: nothing is known, state stays as it was); ids the
 * answer leaves out or garbles are simply not in the map.
 */
export function readBatchExist(envelope: Envelope<unknown>, ids: readonly number[]): Map<number, boolean> | null {
  if (envelope.code !== 0 || !isRecord(envelope.data)) return null;
  const states = new Map<number, boolean>();
  for (const id of ids) {
    const flag = envelope.data[String(id)];
    if (isFlag(flag)) states.set(id, flag === 1);
  }
  return states;
}

export function readCount(envelope: Envelope<unknown>): number | null {
  if (envelope.code !== 0 || !isRecord(envelope.data)) return null;
  const num = envelope.data['num'];
  return typeof num === 'number' && Number.isInteger(num) && num >= 0 ? num : null;
}

// ---- the action a visitor asked for before signing in ----

/** sessionStorage key: one tab's sign-in round trip, gone with the tab. */
export const PENDING_KEY = 'portal:pending-interaction';
/** As long as the server keeps a pending sign-in (its state lives 10 minutes). */
export const PENDING_TTL_MS = 10 * 60 * 1000;

export interface PendingInteraction {
  target: InteractionTarget;
  /** pathname + search of the page the visitor clicked on: the action is done there and nowhere else. */
  path: string;
  /** Epoch ms after which it is forgotten. */
  expires: number;
}

const ARTICLE_KINDS = new Set<string>(['thumbsup', 'collection', 'collection_video']);
const SUBSCRIPTION_KINDS = new Set<string>(['author', 'tag']);
const MAX_ID = 2 ** 31 - 1;

function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_ID;
}

function parseTarget(value: unknown): InteractionTarget | null {
  if (!isRecord(value) || typeof value['kind'] !== 'string' || !isId(value['id'])) return null;
  const { kind, id } = value;
  if (SUBSCRIPTION_KINDS.has(kind)) return { kind: kind as 'author' | 'tag', id };
  if (ARTICLE_KINDS.has(kind) && isId(value['catid'])) {
    return { kind: kind as 'thumbsup' | 'collection' | 'collection_video', catid: value['catid'], id };
  }
  return null;
}

export function encodePending(target: InteractionTarget, path: string, now: number): string {
  const pending: PendingInteraction = { target, path, expires: now + PENDING_TTL_MS };
  return JSON.stringify(pending);
}

/**
 * The stored action, if it is well-formed, not expired, and was made on `path`. Storage is writable by anything
 * on the origin and outlives a page, so nothing in it is trusted: a bad or stale entry is no action at all.
 */
export function readPending(raw: string | null, path: string, now: number): PendingInteraction | null {
  if (raw === null || raw.length > 1024) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isRecord(value) || typeof value['path'] !== 'string' || typeof value['expires'] !== 'number') return null;
  const target = parseTarget(value['target']);
  const { path: storedPath, expires } = value;
  // An expiry beyond the lifetime means a clock change or a forged entry.
  if (!target || storedPath !== path || expires <= now || expires > now + PENDING_TTL_MS) return null;
  return { target, path: storedPath, expires };
}

/** Whether the group shows the target (same kind, same category for article marks, one of its ids). */
export function groupHolds(group: InteractionGroup, target: InteractionTarget): boolean {
  if (group.kind !== target.kind || !group.ids.includes(target.id)) return false;
  return !('catid' in group) || ('catid' in target && group.catid === target.catid);
}

export function targetOf(group: InteractionGroup, id: number): InteractionTarget {
  return 'catid' in group ? { kind: group.kind, catid: group.catid, id } : { kind: group.kind, id };
}

// ---- a group's state, as the buttons show it ----

export interface GroupState {
  /** Known marks; an id not here shows as off. */
  on: ReadonlyMap<number, boolean>;
  /** Ids with a toggle in flight: their buttons ignore clicks. */
  busy: ReadonlySet<number>;
  /** Ids the reader has clicked: a toggle's answer is newer than any batch answer, even one arriving later. */
  changed: ReadonlySet<number>;
}

export type GroupAction =
  | { type: 'loaded'; states: ReadonlyMap<number, boolean> }
  | { type: 'start'; id: number }
  | { type: 'settled'; id: number; on: boolean }
  | { type: 'failed'; id: number; previous: boolean }
  | { type: 'reset' };

export const EMPTY_GROUP_STATE: GroupState = { on: new Map(), busy: new Set(), changed: new Set() };

function withMark(on: ReadonlyMap<number, boolean>, id: number, value: boolean): Map<number, boolean> {
  const next = new Map(on);
  next.set(id, value);
  return next;
}

function without(busy: ReadonlySet<number>, id: number): Set<number> {
  const next = new Set(busy);
  next.delete(id);
  return next;
}

export function isOn(state: GroupState, id: number): boolean {
  return state.on.get(id) === true;
}

/** start: optimistic flip; settled: the CMS's word; failed: back to what it was before the click. */
export function groupReducer(state: GroupState, action: GroupAction): GroupState {
  switch (action.type) {
    case 'loaded': {
      const on = new Map(state.on);
      for (const [id, value] of action.states) if (!state.changed.has(id)) on.set(id, value);
      return { ...state, on };
    }
    case 'start':
      return {
        on: withMark(state.on, action.id, !isOn(state, action.id)),
        busy: new Set(state.busy).add(action.id),
        changed: new Set(state.changed).add(action.id),
      };
    case 'settled':
      return { ...state, on: withMark(state.on, action.id, action.on), busy: without(state.busy, action.id) };
    case 'failed':
      // Nothing changed at the CMS: a batch answer still to come is right again.
      return {
        on: withMark(state.on, action.id, action.previous),
        busy: without(state.busy, action.id),
        changed: without(state.changed, action.id),
      };
    case 'reset':
      return EMPTY_GROUP_STATE;
  }
}
