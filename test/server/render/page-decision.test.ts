/** What the page handler does with a request (server/render/page-decision.ts), rule by rule. */
import type { PageLookup } from '../../../server/cache/page-cache';
import { rendersForReader } from '../../../server/edge/classify';
import { sharedPageAction } from '../../../server/render/page-decision';

describe('who gets a page of their own', () => {
  it.each<[string, { signedIn: boolean; perReader: boolean; hasReaderCookie: boolean }, boolean]>([
    ['a visitor on a shared page', { signedIn: false, perReader: false, hasReaderCookie: false }, false],
    ['a visitor on the personal center (its sign-in prompt is shared)', { signedIn: false, perReader: true, hasReaderCookie: false }, false],
    ['a signed-in reader with the reader cookie on a shared page', { signedIn: true, perReader: false, hasReaderCookie: true }, false],
    ['a signed-in reader on the personal center', { signedIn: true, perReader: true, hasReaderCookie: true }, true],
    ['a session from before the reader cookie', { signedIn: true, perReader: false, hasReaderCookie: false }, true],
  ])('%s', (_name, reader, expected) => {
    expect(rendersForReader(reader)).toBe(expected);
  });
});

describe('what is done with the shared page', () => {
  const held = (freshness: PageLookup['freshness']) => ({ freshness }) as PageLookup;

  it('renders (MISS) when nothing is held', () => {
    expect(sharedPageAction(null)).toEqual({ kind: 'render' });
  });

  it.each<[PageLookup['freshness'], string]>([
    ['fresh', 'hit'],
    ['stale', 'stale'],
    ['expired', 'expired'],
  ])('answers a %s page with %s, carrying the lookup', (freshness, kind) => {
    const lookup = held(freshness);
    expect(sharedPageAction(lookup)).toEqual({ kind, lookup });
  });
});
