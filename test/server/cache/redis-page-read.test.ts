/**
 * A page entry read from a real Redis in one form (redis-page-read.ts): the pieces of that form and nothing of
 * the other (pieces of every length around the 16 KiB parts they travel in), the same responses as the whole
 * entry gives, and a miss for exactly the values the whole read
 * refuses (truncated, extended, foreign, corrupted), whatever the script's offsets make of them.
 */
import { gunzipSync } from 'node:zlib';
import type { CacheEntry } from '../../../server/cache/entry';
import { decodeEntry, encodeEntry } from '../../../server/cache/entry-codec';
import {
  decodePage,
  encodePage,
  gzipBody,
  plainBody,
  precompressPage,
  type HeldPage,
  type PageForm,
  type PrecompressedPage,
} from '../../../server/cache/precompressed-page';
import { readPageForm } from '../../../server/cache/redis-page-read';
import { PIECE_BYTES } from '../../../server/redis/chunked-get';
import { RedisStore } from '../../../server/cache/redis-store';
import { newNonce } from '../../../server/middleware/security';
import { describeWithRedis } from '../../support/requirements';
import { PAGES, portalLikePage, RENDER_NONCE } from './page-shapes';
import { suiteRedis } from './redis-helpers';

const META = { storedAt: Date.now(), ttl: 300, grace: 60, staleIfError: 600, tags: ['page:home', 'site:0'] };
const FORMS: PageForm[] = ['plain', 'deflated'];

function storedEntry(page: PrecompressedPage): Buffer {
  return encodeEntry({ ...META, value: encodePage(page) }) as Buffer;
}

/** What the whole read makes of the same bytes: the page, or null where it refuses them. */
function wholeRead(raw: Buffer): PrecompressedPage | null {
  const entry = decodeEntry(raw);
  if (!entry || typeof entry.value === 'string') return null;
  try {
    return decodePage(entry.value);
  } catch {
    return null;
  }
}

function samePieces(read: readonly Buffer[] | null, expected: readonly Buffer[]): boolean {
  return read !== null && read.length === expected.length && read.every((piece, index) => piece.equals(expected[index]!));
}

/** The held page has exactly `form`'s pieces of `page`, and none of the other form. */
function expectForm(held: HeldPage, page: PrecompressedPage, form: PageForm): void {
  const other = form === 'plain' ? 'deflated' : 'plain';
  expect(samePieces(held[form], page[form])).toBe(true);
  expect(held[other]).toBeNull();
  expect(held.plainLengths).toEqual(page.plain.map((piece) => piece.length));
  expect([held.etag, held.nonceLength, held.zeroCrc, held.gapWeights]).toEqual([page.etag, page.nonceLength, page.zeroCrc, page.gapWeights]);
}

describeWithRedis()('readPageForm', () => {
  const suite = suiteRedis();
  const { prefix } = suite;
  let key = 0;
  const store = async (raw: Buffer | string): Promise<string> => {
    const at = `${prefix}:page:${(key += 1)}`;
    await suite.client.set(at, raw);
    return at;
  };

  const aroundPartSize = [0, 1, PIECE_BYTES - 1, PIECE_BYTES, PIECE_BYTES + 1, 3 * PIECE_BYTES, 5].map(
    (length) => '页'.repeat(length / 3) + 'x'.repeat(length % 3),
  );
  describe.each([...PAGES, ['pieces of and around the part size', aroundPartSize.join(RENDER_NONCE)]])('a stored page: %s', (_name, html) => {
    let page: PrecompressedPage;
    let at: string;
    beforeAll(async () => {
      page = await precompressPage(html, RENDER_NONCE, `W/"${key}"`);
      at = await store(storedEntry(page));
    });

    it.each(FORMS)('reads its %s pieces alone, with the entry metadata', async (form) => {
      const read = await readPageForm(suite.client, at, form);
      expect(read).not.toBeNull();
      expectForm(read!.page, page, form);
      const { page: _page, ...meta } = read!;
      expect(meta).toEqual(META);
    });

    it('answers each encoding with the bytes the whole page gives it', async () => {
      const nonce = Buffer.from(newNonce());
      // Bodies from the pages read in one form first: no plan made from the whole page can stand in for them.
      const gzip = gzipBody((await readPageForm(suite.client, at, 'deflated'))!.page, nonce);
      const plain = plainBody((await readPageForm(suite.client, at, 'plain'))!.page, nonce);
      expect(gunzipSync(Buffer.concat(gzip!)).toString('utf8')).toBe(html.split(RENDER_NONCE).join(nonce.toString()));
      expect(Buffer.concat(plain!).toString('utf8')).toBe(html.split(RENDER_NONCE).join(nonce.toString()));
      expect(Buffer.concat(gzip!).equals(Buffer.concat(gzipBody(page, nonce)!))).toBe(true);
    });
  });

  it('reads a page in one form exactly when the whole read takes its bytes, whatever was done to them', async () => {
    const page = await precompressPage(portalLikePage(RENDER_NONCE), RENDER_NONCE, 'W/"mutated"');
    const stored = storedEntry(page);
    const pageAt = stored.indexOf('PGZ1');
    const layoutEnd = pageAt + 8 + stored.readUInt32BE(pageAt + 4);
    const cuts = [1, 4, 7, 8, pageAt - 1, pageAt, pageAt + 6, layoutEnd - 1, layoutEnd, layoutEnd + 1, stored.length - 1];
    for (let at = layoutEnd; at < stored.length; at += 997) cuts.push(at);
    const changed = (offset: number, by: (byte: number) => number) => {
      const copy = Buffer.from(stored);
      copy[offset] = by(copy[offset]!);
      return copy;
    };
    const values: Array<[string, Buffer | string]> = [
      ['whole', stored],
      ...cuts.map((length): [string, Buffer] => [`cut to ${length} bytes`, stored.subarray(0, length)]),
      ['one byte more', Buffer.concat([stored, Buffer.from([0])])],
      ['entry magic changed', changed(1, (byte) => byte ^ 0x20)],
      ['page magic changed', changed(pageAt + 2, (byte) => byte ^ 0x20)],
      ['metadata length too long', changed(7, (byte) => byte + 1)],
      ['layout length too long', changed(pageAt + 7, (byte) => byte + 1)],
      ['layout not JSON', changed(pageAt + 8, () => '!'.charCodeAt(0))],
      ['a text entry', JSON.stringify({ ...META, value: '{"code":0}' })],
      ['bytes that are not a page', encodeEntry({ ...META, value: Buffer.from('not a page at all') })],
      ['a page not in an entry frame', encodePage(page)],
    ];
    for (const [what, raw] of values) {
      const at = await store(raw);
      const whole = wholeRead(Buffer.from(raw));
      for (const form of FORMS) {
        const read = await readPageForm(suite.client, at, form);
        expect([what, form, read !== null]).toEqual([what, form, whole !== null]);
        if (read && whole) expectForm(read.page, whole, form);
      }
    }
  });

  it('answers null for a missing key; fails for a key of another type, which the store reads as a miss', async () => {
    expect(await readPageForm(suite.client, `${prefix}:absent`, 'deflated')).toBeNull();
    await suite.client.rpush(`${prefix}:list`, 'a');
    await expect(readPageForm(suite.client, `${prefix}:list`, 'deflated')).rejects.toThrow(/WRONGTYPE|wrong kind/i);
    const redisStore = new RedisStore({ client: suite.client });
    expect(await redisStore.getPageForm(`${prefix}:list`, 'deflated')).toBeNull();
    // The same key through the whole read: also a miss.
    expect(await redisStore.get(`${prefix}:list`)).toBeNull();
  });

  it('reads through the store what the store wrote', async () => {
    const redisStore = new RedisStore({ client: suite.client });
    const page = await precompressPage(portalLikePage(RENDER_NONCE, 30), RENDER_NONCE, 'W/"store"');
    const entry: CacheEntry = { ...META, value: encodePage(page) };
    await redisStore.set(`${prefix}:stored`, entry);
    const read = await redisStore.getPageForm(`${prefix}:stored`, 'deflated');
    expectForm(read!.page, page, 'deflated');
    expect(read!.tags).toEqual(META.tags);
  });
});
