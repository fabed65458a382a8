/**
 * The interaction rules without a browser: the call each button makes, how answers are read (docs/product.md §8), the
 * pending action a visitor leaves before signing in, and the group state the buttons show.
 */
import {
  BATCH_EXIST_MAX,
  batchExistCall,
  EMPTY_GROUP_STATE,
  encodePending,
  failureMessage,
  groupHolds,
  groupReducer,
  isOn,
  likeCountCall,
  MSG_SIGNED_OUT,
  PENDING_TTL_MS,
  readBatchExist,
  readCount,
  readPending,
  readToggle,
  targetOf,
  toggleCall,
  type GroupState,
} from '../../shared/interactions';
import type { InteractionTarget } from '../../shared/types/interactions';

const ok = (data: unknown) => ({ code: 0, msg: 'success', data });
const failed = { code: 50000, msg: '系统繁忙，请稍后再试', data: null };

describe('calls', () => {
  it('toggles each kind with the body the CMS takes', () => {
    expect(toggleCall({ kind: 'thumbsup', catid: 7, id: 42 })).toEqual({ method: 'POST', path: '/api/thumbsup/toggle', body: { catid: 7, article_id: 42 } });
    expect(toggleCall({ kind: 'collection', catid: 7, id: 42 }).path).toBe('/api/collection/toggle');
    expect(toggleCall({ kind: 'collection_video', catid: 9, id: 3 })).toEqual({
      method: 'POST',
      path: '/api/collection_video/toggle',
      body: { catid: 9, article_id: 3 },
    });
    expect(toggleCall({ kind: 'author', id: 5 })).toEqual({ method: 'POST', path: '/api/special_column_author/toggle', body: { author_id: 5 } });
    expect(toggleCall({ kind: 'tag', id: 8 })).toEqual({ method: 'POST', path: '/api/tag/toggle', body: { tag_id: 8 } });
  });

  it('asks about a whole group in one batch_exist, without duplicates, at most the CMS limit', () => {
    expect(batchExistCall({ kind: 'author', ids: [3, 1, 3] })).toEqual({ method: 'POST', path: '/api/column_subscribe/batch_exist', body: { list: [3, 1] } });
    expect(batchExistCall({ kind: 'tag', ids: [4] })?.path).toBe('/api/tag/batch_exist');
    expect(batchExistCall({ kind: 'collection', catid: 7, ids: [42] })).toEqual({
      method: 'POST',
      path: '/api/collection/batch_exist',
      body: { catid: 7, list: [42] },
    });
    const many = Array.from({ length: 150 }, (_, index) => index + 1);
    const call = batchExistCall({ kind: 'thumbsup', catid: 1, ids: many });
    expect(call?.method === 'POST' && call.body.list).toHaveLength(BATCH_EXIST_MAX);
    expect(batchExistCall({ kind: 'tag', ids: [] })).toBeNull();
  });

  it('reads the like count with article_id and catid', () => {
    expect(likeCountCall(7, 42)).toEqual({ method: 'GET', path: '/api/thumbsup/get_num?article_id=42&catid=7' });
  });
});

describe('answers (docs/product.md §8: code 0 is success, anything else is nothing)', () => {
  it('reads a toggle answer per kind, null on failure or garbage', () => {
    expect(readToggle('thumbsup', ok({ status: 1 }))).toBe(true);
    expect(readToggle('collection', ok({ status: 0 }))).toBe(false);
    expect(readToggle('author', ok({ subscribe_status: 1 }))).toBe(true);
    expect(readToggle('tag', ok({ subscribe_status: 0 }))).toBe(false);
    expect(readToggle('thumbsup', failed)).toBeNull();
    expect(readToggle('thumbsup', ok({ subscribe_status: 1 }))).toBeNull();
    expect(readToggle('tag', ok({ subscribe_status: '1' }))).toBeNull();
    expect(readToggle('thumbsup', ok(null))).toBeNull();
    expect(readToggle('thumbsup', { code: 1, msg: '', data: { status: 1 } })).toBeNull();
  });

  it('reads batch_exist for the asked ids only, null when the call failed', () => {
    const states = readBatchExist(ok({ '1': 1, '2': 0, '3': 'yes', '99': 1 }), [1, 2, 3, 4]);
    expect(states && [...states]).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(readBatchExist(failed, [1])).toBeNull();
    expect(readBatchExist(ok([1, 0]), [0, 1])).toBeNull();
  });

  it('reads a count, null unless a non-negative integer', () => {
    expect(readCount(ok({ num: 3 }))).toBe(3);
    expect(readCount(ok({ num: -1 }))).toBeNull();
    expect(readCount(ok({ num: 1.5 }))).toBeNull();
    expect(readCount(failed)).toBeNull();
  });

  it('says what failed, and that the sign-in ended on 40101', () => {
    expect(failureMessage('thumbsup', 50000)).toBe('点赞失败，请稍后重试');
    expect(failureMessage('collection_video', 500)).toBe('收藏失败，请稍后重试');
    expect(failureMessage('tag', 502)).toBe('订阅失败，请稍后重试');
    expect(failureMessage('author', 40101)).toBe(MSG_SIGNED_OUT);
  });
});

describe('the pending action of a visitor', () => {
  const now = 1_700_000_000_000;
  const target: InteractionTarget = { kind: 'thumbsup', catid: 7, id: 42 };

  it('round-trips on the same page within its lifetime', () => {
    const raw = encodePending(target, '/detail/7/42', now);
    expect(readPending(raw, '/detail/7/42', now + PENDING_TTL_MS - 1)).toEqual({ target, path: '/detail/7/42', expires: now + PENDING_TTL_MS });
    expect(readPending(encodePending({ kind: 'tag', id: 3 }, '/tagDetail/3/x', now), '/tagDetail/3/x', now)?.target).toEqual({ kind: 'tag', id: 3 });
  });

  it('is nothing once expired, on another page, or from a future clock', () => {
    const raw = encodePending(target, '/detail/7/42', now);
    expect(readPending(raw, '/detail/7/42', now + PENDING_TTL_MS)).toBeNull();
    expect(readPending(raw, '/detail/7/43', now)).toBeNull();
    expect(readPending(raw, '/detail/7/42', now - 60_000)).toBeNull();
  });

  it.each([
    ['not JSON', '{'],
    ['null', 'null'],
    ['an array', '[]'],
    ['an unknown kind', JSON.stringify({ target: { kind: 'delete', id: 1 }, path: '/', expires: now + 1000 })],
    ['an article mark without catid', JSON.stringify({ target: { kind: 'thumbsup', id: 1 }, path: '/', expires: now + 1000 })],
    ['a negative id', JSON.stringify({ target: { kind: 'tag', id: -1 }, path: '/', expires: now + 1000 })],
    ['a string id', JSON.stringify({ target: { kind: 'tag', id: '1' }, path: '/', expires: now + 1000 })],
    ['a fractional id', JSON.stringify({ target: { kind: 'author', id: 1.5 }, path: '/', expires: now + 1000 })],
    ['no expiry', JSON.stringify({ target: { kind: 'tag', id: 1 }, path: '/' })],
    ['an oversized entry', JSON.stringify({ target: { kind: 'tag', id: 1 }, path: `/${'x'.repeat(2000)}`, expires: now + 1000 })],
  ])('refuses %s', (_name, raw) => {
    expect(readPending(raw, raw.includes('xxxx') ? `/${'x'.repeat(2000)}` : '/', now)).toBeNull();
  });

  it('keeps only the fields it knows', () => {
    const raw = JSON.stringify({ target: { kind: 'tag', id: 1, extra: '<script>' }, path: '/', expires: now + 1000, more: 1 });
    expect(readPending(raw, '/', now)).toEqual({ target: { kind: 'tag', id: 1 }, path: '/', expires: now + 1000 });
  });

  it('belongs to the group that shows it: same kind, same category, one of its ids', () => {
    expect(groupHolds({ kind: 'thumbsup', catid: 7, ids: [42] }, target)).toBe(true);
    expect(groupHolds({ kind: 'thumbsup', catid: 8, ids: [42] }, target)).toBe(false);
    expect(groupHolds({ kind: 'collection', catid: 7, ids: [42] }, target)).toBe(false);
    expect(groupHolds({ kind: 'thumbsup', catid: 7, ids: [41] }, target)).toBe(false);
    expect(groupHolds({ kind: 'author', ids: [1, 2] }, { kind: 'author', id: 2 })).toBe(true);
    expect(groupHolds({ kind: 'tag', ids: [2] }, { kind: 'author', id: 2 })).toBe(false);
    expect(targetOf({ kind: 'collection', catid: 7, ids: [42] }, 42)).toEqual({ kind: 'collection', catid: 7, id: 42 });
    expect(targetOf({ kind: 'tag', ids: [2] }, 2)).toEqual({ kind: 'tag', id: 2 });
  });
});

describe('group state', () => {
  const loaded = (entries: Array<[number, boolean]>): GroupState => groupReducer(EMPTY_GROUP_STATE, { type: 'loaded', states: new Map(entries) });

  it('flips at once on a click and keeps the answer of the CMS', () => {
    const started = groupReducer(loaded([[1, false]]), { type: 'start', id: 1 });
    expect(isOn(started, 1)).toBe(true);
    expect(started.busy.has(1)).toBe(true);
    const settled = groupReducer(started, { type: 'settled', id: 1, on: true });
    expect(isOn(settled, 1)).toBe(true);
    expect(settled.busy.size).toBe(0);
  });

  it('rolls back to what it was on failure', () => {
    const started = groupReducer(loaded([[1, true]]), { type: 'start', id: 1 });
    expect(isOn(started, 1)).toBe(false);
    const failedState = groupReducer(started, { type: 'failed', id: 1, previous: true });
    expect(isOn(failedState, 1)).toBe(true);
    expect(failedState.busy.size).toBe(0);
  });

  it('a batch answer arriving after a toggle settled does not undo it', () => {
    const started = groupReducer(EMPTY_GROUP_STATE, { type: 'start', id: 1 });
    const settled = groupReducer(started, { type: 'settled', id: 1, on: true });
    const late = groupReducer(settled, { type: 'loaded', states: new Map([[1, false]]) });
    expect(isOn(late, 1)).toBe(true);
  });

  it('after a failed toggle, a batch answer still to come is taken', () => {
    const started = groupReducer(EMPTY_GROUP_STATE, { type: 'start', id: 1 });
    const failedState = groupReducer(started, { type: 'failed', id: 1, previous: false });
    expect(isOn(groupReducer(failedState, { type: 'loaded', states: new Map([[1, true]]) }), 1)).toBe(true);
  });

  it('a late batch answer does not overwrite a mark being changed', () => {
    const started = groupReducer(EMPTY_GROUP_STATE, { type: 'start', id: 1 });
    const late = groupReducer(started, {
      type: 'loaded',
      states: new Map([
        [1, false],
        [2, true],
      ]),
    });
    expect(isOn(late, 1)).toBe(true);
    expect(isOn(late, 2)).toBe(true);
  });

  it('unknown ids show as off, and reset forgets everything', () => {
    expect(isOn(EMPTY_GROUP_STATE, 9)).toBe(false);
    expect(groupReducer(loaded([[1, true]]), { type: 'reset' })).toBe(EMPTY_GROUP_STATE);
  });
});
