/**
 * The reference API's pictures over real HTTP: every image URL of the dataset is a JPEG that decodes at the size
 * its URL names, the same bytes on every request and from a fresh instance with the same seed, different between
 * articles and between categories, and the e-paper page images draw a block exactly where each clickable area is.
 */
import { decode } from 'jpeg-js';
import type { Envelope } from '../../../shared/types/envelope';
import type { RawArticleDetail, RawNewspaperArea, RawNewspaperSearch } from '../../../server/upstream/wire';
import { startReferenceApi, type RunningReferenceApi } from '../../../scripts/reference-api/server';
import { getOverSocket as get } from './client';
import { NOW, SEED } from './fixtures';

/** A fresh connection per request (agent: false): no race with the server closing an idle keep-alive socket. */

interface Decoded {
  width: number;
  height: number;
  data: Uint8Array;
}

function decodeJpeg(bytes: Buffer): Decoded {
  return decode(bytes, { useTArray: true, formatAsRGBA: true });
}

/** Mean luminance (0–255) of a box, which smooths JPEG ringing at the edges of drawn shapes. */
function luminance(image: Decoded, x: number, y: number, width: number, height: number): number {
  let sum = 0;
  let count = 0;
  for (let row = Math.round(y); row < Math.round(y + height); row += 1) {
    for (let column = Math.round(x); column < Math.round(x + width); column += 1) {
      const offset = (row * image.width + column) * 4;
      sum += 0.299 * (image.data[offset] ?? 0) + 0.587 * (image.data[offset + 1] ?? 0) + 0.114 * (image.data[offset + 2] ?? 0);
      count += 1;
    }
  }
  return sum / Math.max(1, count);
}

function meanColour(image: Decoded): [number, number, number] {
  const total = [0, 0, 0];
  for (let offset = 0; offset < image.data.length; offset += 4) {
    for (let channel = 0; channel < 3; channel += 1) total[channel]! += image.data[offset + channel] ?? 0;
  }
  const pixels = image.data.length / 4;
  return [total[0]! / pixels, total[1]! / pixels, total[2]! / pixels];
}

function colourDistance(left: readonly number[], right: readonly number[]): number {
  return Math.hypot(...left.map((value, index) => value - (right[index] ?? 0)));
}

/** Painting and encoding a full broadsheet takes a few hundred milliseconds; a busy machine needs far more room. */
jest.setTimeout(60_000);

describe('reference API pictures', () => {
  let server: RunningReferenceApi;

  beforeAll(async () => {
    server = await startReferenceApi({ seed: SEED, now: NOW, port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('names a JPEG for every picture in the dataset; only the skin logo, a wordmark, stays SVG', () => {
    const paths = JSON.stringify(server.api.dataset).match(/\/media\/img\/[a-z0-9]+-\d+x\d+\.[a-z]+/g) ?? [];
    expect(paths.length).toBeGreaterThan(200);
    const notJpeg = [...new Set(paths.filter((path) => !path.endsWith('.jpg')))];
    expect(notJpeg).toEqual(['/media/img/skinlogo-360x80.svg']);
  });

  it.each([
    ['an article', 'a30001', 600, 400],
    ['an inline figure', 'a30002f1', 320, 240],
    ['a column author', 'av1', 200, 200],
    ['a user', 'u7', 64, 64],
    ['an ad', 'ad3', 728, 90],
    ['a video cover', 'v12', 640, 360],
    ['a boutique poster', 'bq5', 750, 1334],
  ])('serves %s as a JPEG of the size its URL names, the same bytes every time', async (_label, key, width, height) => {
    const url = `${server.url}/media/img/${key}-${width}x${height}.jpg`;
    const first = await get(url);
    expect(first.status).toBe(200);
    expect(first.type).toBe('image/jpeg');
    const image = decodeJpeg(first.bytes);
    expect([image.width, image.height]).toEqual([width, height]);
    // A composition, not a flat tile: over a 6×6 grid the picture has clearly darker and lighter regions.
    const cells = Array.from({ length: 36 }, (_, cell) =>
      luminance(image, ((cell % 6) * width) / 6, (Math.floor(cell / 6) * height) / 6, width / 6, height / 6),
    );
    expect(Math.max(...cells) - Math.min(...cells)).toBeGreaterThan(40);
    expect((await get(url)).bytes.equals(first.bytes)).toBe(true);
  });

  it('paints the same picture from a fresh instance with the same seed (no state but the seed)', async () => {
    const other = await startReferenceApi({ seed: SEED, now: NOW, port: 0 });
    try {
      for (const path of ['/media/img/a30003-300x200.jpg', '/media/img/av2-100x100.jpg']) {
        expect((await get(`${other.url}${path}`)).bytes.equals((await get(`${server.url}${path}`)).bytes)).toBe(true);
      }
    } finally {
      await other.close();
    }
  });

  it('differs between articles, and between categories in colour', async () => {
    const articles = [...server.api.dataset.articleById.values()];
    const byCategory = new Map<string, RawArticleDetail>();
    for (const article of articles) if (!byCategory.has(article.catname)) byCategory.set(article.catname, article);
    const firsts = [...byCategory.values()].slice(0, 6);
    expect(firsts.length).toBeGreaterThanOrEqual(4);
    const images = await Promise.all(firsts.map(async (article) => (await get(`${server.url}/media/img/a${article.id}-240x160.jpg`)).bytes));
    expect(new Set(images.map((bytes) => bytes.toString('base64'))).size).toBe(images.length);
    const colours = images.map((bytes) => meanColour(decodeJpeg(bytes)));
    const distinctPairs = colours
      .flatMap((left, index) => colours.slice(index + 1).map((right) => colourDistance(left, right)))
      .filter((distance) => distance > 6);
    expect(distinctPairs.length).toBeGreaterThanOrEqual((colours.length * (colours.length - 1)) / 2 - 2);
    const sameCategory = articles.filter((article) => article.catname === firsts[0]!.catname).slice(0, 2);
    const pair = await Promise.all(sameCategory.map(async (article) => (await get(`${server.url}/media/img/a${article.id}-240x160.jpg`)).bytes));
    expect(pair[0]!.equals(pair[1]!)).toBe(false);
  });

  it.each([
    ['too large to paint', '/media/img/a30001-4000x4000.jpg'],
    ['too small', '/media/img/a30001-8x400.jpg'],
    ['an unknown format', '/media/img/a30001-600x400.png'],
    ['an uppercase key', '/media/img/A30001-600x400.jpg'],
  ])('answers 404 for a picture path that is %s', async (_label, path) => {
    expect((await get(`${server.url}${path}`)).status).toBe(404);
  });

  it('still serves the older SVG form of a picture path', async () => {
    const old = await get(`${server.url}/media/img/a30001-600x400.svg`);
    expect(old.status).toBe(200);
    expect(old.type).toContain('image/svg+xml');
  });

  describe('e-paper page images', () => {
    let pages: Array<{ image: string; width: number; height: number; areas: RawNewspaperArea[] }>;

    beforeAll(async () => {
      const search = JSON.parse((await get(`${server.url}/api/rmt/read_newspapers_search?page=1`)).bytes.toString('utf8')) as Envelope<RawNewspaperSearch>;
      pages = search.data.list.slice(0, 2).flatMap((issue) => issue.pages.slice(0, 2));
      expect(pages.length).toBeGreaterThanOrEqual(3);
    });

    /** Inside each area the headline bar is ink; just outside it (gutter, margin) is bare paper. */
    function expectBlocksOnAreas(image: Decoded, areas: readonly RawNewspaperArea[], scale: number): void {
      for (const area of areas) {
        const x = area.x * scale;
        const y = area.y * scale;
        expect(luminance(image, x + 24 * scale, y + 24 * scale, 40 * scale, 16 * scale)).toBeLessThan(70);
        expect(luminance(image, x + 30 * scale, y - 12 * scale, area.width * scale * 0.8, 6 * scale)).toBeGreaterThan(220);
        expect(luminance(image, x - 30 * scale, y + 20 * scale, 16 * scale, area.height * scale * 0.6)).toBeGreaterThan(220);
        // The border is drawn on the area's edge: darker than the paper beside it.
        expect(luminance(image, x + 40 * scale, y, area.width * scale * 0.5, 2)).toBeLessThan(200);
      }
    }

    it('draws a headline block on every clickable area, at the declared size', async () => {
      for (const page of pages) {
        const fetched = await get(page.image);
        expect(fetched.type).toBe('image/jpeg');
        const image = decodeJpeg(fetched.bytes);
        expect([image.width, image.height]).toEqual([page.width, page.height]);
        expectBlocksOnAreas(image, page.areas, 1);
      }
    });

    it('scales the blocks with the image when a smaller page is asked for', async () => {
      const page = pages[0]!;
      const half = page.image.replace(`-${page.width}x${page.height}.jpg`, `-${page.width / 2}x${page.height / 2}.jpg`);
      const image = decodeJpeg((await get(half)).bytes);
      expect([image.width, image.height]).toEqual([page.width / 2, page.height / 2]);
      expectBlocksOnAreas(image, page.areas, 0.5);
    });
  });
});
