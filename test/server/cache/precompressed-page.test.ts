/**
 * Pages compressed once and served with a fresh nonce each time: every assembled gzip member must decompress to
 * exactly the page with that nonce, and the identity form must say the same.
 */
import { deflateRawSync, gunzipSync, gzipSync } from 'node:zlib';
import {
  byteLength,
  decodePage,
  encodePage,
  gzipBody,
  plainBody,
  plainLength,
  precompressPage,
  splitAtNonce,
  type PrecompressedPage,
} from '../../../server/cache/precompressed-page';
import { etagOf } from '../../../server/cache/page-cache';
import { newNonce } from '../../../server/middleware/security';
import { PAGES, portalLikePage, RENDER_NONCE } from './page-shapes';

function gzipText(page: PrecompressedPage, nonce: string): string {
  const chunks = gzipBody(page, Buffer.from(nonce));
  if (!chunks) throw new Error('no gzip body');
  return gunzipSync(Buffer.concat(chunks)).toString('utf8');
}

function plainText(page: PrecompressedPage, nonce: string): string {
  return Buffer.concat(plainBody(page, Buffer.from(nonce))).toString('utf8');
}

describe.each(PAGES)('precompressed page: %s', (_name, html) => {
  let page: PrecompressedPage;
  beforeAll(async () => {
    page = await precompressPage(html, RENDER_NONCE, 'W/"etag"');
  });

  it('gunzips to the page with each response nonce, and the identity body matches', () => {
    for (let round = 0; round < 25; round++) {
      const nonce = newNonce();
      const expected = html.split(RENDER_NONCE).join(nonce);
      expect(gzipText(page, nonce)).toBe(expected);
      expect(plainText(page, nonce)).toBe(expected);
      expect(plainLength(page, Buffer.byteLength(nonce))).toBe(Buffer.byteLength(expected));
    }
  });

  it('gives each response bytes of its own: bodies made earlier keep their nonce when later ones are made', () => {
    const nonces = Array.from({ length: 6 }, () => newNonce());
    const bodies = nonces.map((nonce) => ({ nonce, plain: plainBody(page, Buffer.from(nonce)), gzip: gzipBody(page, Buffer.from(nonce))! }));
    for (const { nonce, plain, gzip } of bodies) {
      const expected = html.split(RENDER_NONCE).join(nonce);
      expect(Buffer.concat(plain).toString('utf8')).toBe(expected);
      expect(gunzipSync(Buffer.concat(gzip)).toString('utf8')).toBe(expected);
    }
  });

  it('survives its stored form byte for byte', () => {
    const decoded = decodePage(encodePage(page));
    const nonce = Buffer.from(newNonce());
    expect(decoded.etag).toBe('W/"etag"');
    expect(Buffer.concat(gzipBody(decoded, nonce)!).equals(Buffer.concat(gzipBody(page, nonce)!))).toBe(true);
    expect(Buffer.concat(plainBody(decoded, nonce)).equals(Buffer.concat(plainBody(page, nonce)))).toBe(true);
  });
});

describe('precompressed page', () => {
  it('compresses about as well as one gzip stream of the whole page: pieces refer back into earlier ones', async () => {
    const html = portalLikePage(RENDER_NONCE);
    const page = await precompressPage(html, RENDER_NONCE, 'W/"e"');
    const spliced = byteLength(gzipBody(page, Buffer.from(newNonce()))!);
    // Each piece costs a block header and a flush marker; beyond that, no more than one whole stream.
    expect(spliced).toBeLessThan(gzipSync(html).length + 32 * page.plain.length);
    const separately = html.split(RENDER_NONCE).reduce((total, piece) => total + deflateRawSync(piece).length, 0);
    expect(spliced).toBeLessThan(separately * 0.8);
  });

  it('writes a page as a few chunks, not one per nonce', async () => {
    const page = await precompressPage(portalLikePage(RENDER_NONCE), RENDER_NONCE, 'W/"e"');
    expect(page.plain.length).toBe(17);
    // Runs of small pieces (head, scripts) are joined; the state and the markup go as they are: 5 chunks, not 33.
    expect(plainBody(page, Buffer.from(newNonce())).length).toBeLessThanOrEqual(5);
    expect(gzipBody(page, Buffer.from(newNonce()))!.length).toBeLessThanOrEqual(5);
  });

  it('serves a page read again (another object, the same stored bytes) from the plan made for the first', async () => {
    const html = portalLikePage(RENDER_NONCE);
    const stored = encodePage(await precompressPage(html, RENDER_NONCE, etagOf(html, RENDER_NONCE)));
    const first = decodePage(Buffer.from(stored));
    const again = decodePage(Buffer.from(stored));
    const nonce = newNonce();
    const fromFirst = plainBody(first, Buffer.from(nonce));
    const fromAgain = plainBody(again, Buffer.from(nonce));
    // The long pieces written as they are are the first read's bytes: no plan was made for the second.
    const longest = (chunks: Buffer[]) => chunks.reduce((a, b) => (b.length > a.length ? b : a));
    expect(longest(fromAgain).buffer).toBe(longest(fromFirst).buffer);
    expect(Buffer.concat(fromAgain).toString('utf8')).toBe(html.split(RENDER_NONCE).join(nonce));
    expect(gunzipSync(Buffer.concat(gzipBody(again, Buffer.from(nonce))!)).toString('utf8')).toBe(html.split(RENDER_NONCE).join(nonce));
  });

  it('gives no gzip body for a nonce of another length (its pieces were compressed around that length)', async () => {
    const page = await precompressPage(portalLikePage(RENDER_NONCE), RENDER_NONCE, 'W/"e"');
    expect(gzipBody(page, Buffer.from('short'))).toBeNull();
    expect(plainText(page, 'short')).toBe(portalLikePage('short'));
  });

  it('reads every stored form with its own bytes, its layout parsed once (a page read from Redis on every hit)', async () => {
    const stored = encodePage(await precompressPage(portalLikePage(RENDER_NONCE), RENDER_NONCE, 'W/"e"'));
    const first = decodePage(stored);
    // Another copy with the same layout and other bytes in its last piece: the bytes are its own, not the first's.
    const other = Buffer.from(stored);
    const lastPlain = first.plain.at(-1)!;
    const at = stored.length - first.deflated.reduce((total, piece) => total + piece.length, 0) - lastPlain.length;
    other.write('#', at, 'latin1');
    const second = decodePage(other);
    expect(second.plain.at(-1)![0]).toBe('#'.charCodeAt(0));
    expect(first.plain.at(-1)!.equals(lastPlain)).toBe(true);
    expect(second.plain.at(-1)!.buffer).toBe(other.buffer);
    // A known layout does not make a cut-short copy readable.
    expect(() => decodePage(stored.subarray(0, stored.length - 1))).toThrow();
  });

  it('refuses stored forms that are corrupted, truncated or foreign', async () => {
    const stored = encodePage(await precompressPage(portalLikePage(RENDER_NONCE), RENDER_NONCE, 'W/"e"'));
    const flipped = Buffer.from(stored);
    flipped.writeUInt8(flipped.readUInt8(0) ^ 0xff, 0);
    const badLayout = Buffer.from(stored);
    badLayout.write('!', 9, 'latin1');
    expect(() => decodePage(flipped)).toThrow();
    expect(() => decodePage(stored.subarray(0, stored.length - 1))).toThrow();
    expect(() => decodePage(Buffer.concat([stored, Buffer.from('x')]))).toThrow();
    expect(() => decodePage(badLayout)).toThrow();
    // Refused again when seen again (refusals are remembered too).
    expect(() => decodePage(badLayout)).toThrow();
    expect(() => decodePage(Buffer.from(JSON.stringify({ html: '<p>', nonce: RENDER_NONCE, etag: 'W/"x"' })))).toThrow();
    expect(() => decodePage(Buffer.alloc(0))).toThrow();
  });
});

describe('a page given as its UTF-8 bytes', () => {
  it.each(PAGES)('is cut at its nonce as the text is: %s', (_name, html) => {
    const pieces = splitAtNonce(Buffer.from(html, 'utf8'), Buffer.from(RENDER_NONCE));
    expect(pieces.map((piece) => piece.toString('utf8'))).toEqual(html.split(RENDER_NONCE));
  });

  it('compresses to the same stored page, and has the same ETag, as its text', async () => {
    const html = portalLikePage(RENDER_NONCE);
    const fromText = await precompressPage(html, RENDER_NONCE, 'W/"e"');
    const fromBytes = await precompressPage(Buffer.from(html, 'utf8'), RENDER_NONCE, 'W/"e"');
    expect(encodePage(fromBytes).equals(encodePage(fromText))).toBe(true);
    expect(etagOf(Buffer.from(html, 'utf8'), RENDER_NONCE)).toBe(etagOf(html, RENDER_NONCE));
    // The ETag ignores the nonce: the same page rendered with another has the same one.
    expect(etagOf(portalLikePage('b3RoZXItbm9uY2UtMDAwMg=='), 'b3RoZXItbm9uY2UtMDAwMg==')).toBe(etagOf(html, RENDER_NONCE));
  });

  it('compresses many pages at once, each to its own bytes', async () => {
    const pages = Array.from({ length: 12 }, (_, index) => portalLikePage(RENDER_NONCE, 20 + index * 15));
    const compressed = await Promise.all(pages.map((html) => precompressPage(html, RENDER_NONCE, 'W/"e"')));
    const nonce = newNonce();
    compressed.forEach((page, index) => expect(gzipText(page, nonce)).toBe(pages[index]!.split(RENDER_NONCE).join(nonce)));
  });
});
