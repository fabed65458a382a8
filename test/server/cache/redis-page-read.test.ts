/**
 * A page entry read from a real Redis in one form (redis-page-read.ts): that form's bytes and nothing of the
 * others (forms of every length around the 16 KiB parts they travel in), the same bytes as the whole entry holds,
 * and a miss for exactly the values the whole read refuses (truncated, extended, foreign, corrupted), whatever
 * the script's offsets make of them.
 */
import type { CacheEntry } from '../../../server/cache/entry';
import { decodeEntry, encodeEntry } from '../../../server/cache/entry-codec';
import { compressPage, decodePage, encodePage, PAGE_FORMS, sealPage, type HeldPage, type StoredPage } from '../../../server/cache/stored-page';
import { readPageForm } from '../../../server/cache/redis-page-read';
import { PIECE_BYTES } from '../../../server/redis/chunked-get';
import { RedisStore } from '../../../server/cache/redis-store';
import { describeWithRedis } from '../../support/requirements';
import { PAGES, portalLikePage, RENDER_NONCE } from './page-shapes';
import { suiteRedis } from './redis-helpers';

const META = { storedAt: Date.now(), ttl: 300, grace: 60, staleIfError: 600, tags: ['page:home', 'site:0'] };

function storedEntry(page: StoredPage): Buffer {
  return encodeEntry({ ...META, value: encodePage(page) }) as Buffer;
}

async function storedPage(html: string): Promise<StoredPage> {
  return compressPage(sealPage(Buffer.from(html, 'utf8'), RENDER_NONCE)!);
}

/** What the whole read makes of the same bytes: the page, or null where it refuses them. */
function wholeRead(raw: Buffer): StoredPage | null {
  const entry = decodeEntry(raw);
  if (!entry || typeof entry.value === 'string') return null;
  try {
    return decodePage(entry.value);
  } catch {
    return null;
  }
}

/** The held page has exactly `form`'s bytes of `page`, and none of the other forms. */
function expectForm(held: HeldPage, page: StoredPage, form: (typeof PAGE_FORMS)[number]): void {
  expect(held[form]?.equals(page[form])).toBe(true);
  expect(PAGE_FORMS.filter((other) => other !== form).map((other) => held[other])).toEqual([null, null]);
  expect([held.etag, held.scripts]).toEqual([page.etag, page.scripts]);
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

  // Text of and around the 16 KiB parts a form travels in (random text, so the compressed forms are as long).
  let seed = 11;
  const noise = (length: number) =>
    Array.from({ length }, () => String.fromCharCode(0x4e00 + ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % 2000))).join('');
  const aroundPartSize = [0, 1, PIECE_BYTES - 1, PIECE_BYTES, PIECE_BYTES + 1, 3 * PIECE_BYTES].map((length): [string, string] => [
    `a text of ${length} bytes`,
    '页'.repeat(Math.floor(length / 3)) + 'x'.repeat(length % 3),
  ]);
  const randomText: Array<[string, string]> = [[`random text over several parts compressed too`, noise(3 * PIECE_BYTES)]];
  describe.each([...PAGES, ...aroundPartSize, ...randomText])('a stored page: %s', (_name, html) => {
    let page: StoredPage;
    let at: string;
    beforeAll(async () => {
      page = await storedPage(html);
      at = await store(storedEntry(page));
    });

    it.each([...PAGE_FORMS])('reads its %s form alone, with the entry metadata', async (form) => {
      const read = await readPageForm(suite.client, at, form);
      expect(read).not.toBeNull();
      expectForm(read!.page, page, form);
      const { page: _page, ...meta } = read!;
      expect(meta).toEqual(META);
    });
  });

  it('reads a page in one form exactly when the whole read takes its bytes, whatever was done to them', async () => {
    const page = await storedPage(portalLikePage(RENDER_NONCE));
    const stored = storedEntry(page);
    const pageAt = stored.indexOf('PGF2');
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
      for (const form of PAGE_FORMS) {
        const read = await readPageForm(suite.client, at, form);
        expect([what, form, read !== null]).toEqual([what, form, whole !== null]);
        if (read && whole) expectForm(read.page, whole, form);
      }
    }
  });

  it('answers null for a missing key; fails for a key of another type, which the store reads as a miss', async () => {
    expect(await readPageForm(suite.client, `${prefix}:absent`, 'gzip')).toBeNull();
    await suite.client.rpush(`${prefix}:list`, 'a');
    await expect(readPageForm(suite.client, `${prefix}:list`, 'gzip')).rejects.toThrow(/WRONGTYPE|wrong kind/i);
    const redisStore = new RedisStore({ client: suite.client });
    expect(await redisStore.getPageForm(`${prefix}:list`, 'gzip')).toBeNull();
    // The same key through the whole read: also a miss.
    expect(await redisStore.get(`${prefix}:list`)).toBeNull();
  });

  it('reads through the store what the store wrote', async () => {
    const redisStore = new RedisStore({ client: suite.client });
    const page = await storedPage(portalLikePage(RENDER_NONCE, 30));
    const entry: CacheEntry = { ...META, value: encodePage(page) };
    await redisStore.set(`${prefix}:stored`, entry);
    const read = await redisStore.getPageForm(`${prefix}:stored`, 'gzip');
    expectForm(read!.page, page, 'gzip');
    expect(read!.tags).toEqual(META.tags);
  });
});
