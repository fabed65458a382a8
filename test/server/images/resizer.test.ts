/**
 * Issue 51, item 1: the embedded resizer (/img/) against a real HTTP origin serving a hostile picture set, with a
 * real Redis behind the portal's cache. A good picture comes back at the asked width in the format Accept names,
 * with no metadata, stored (a second instance on the same Redis answers it as a HIT). Every bad one gets a clear
 * answer (the placeholder with 502 or 504, or a refusal), never a 500, and is counted; memory stays bounded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import request from 'supertest';
import { boxedUrl, resizedUrl } from '../../../shared/image-pipeline';
import { deleteKeys, eventually, keysOf } from '../cache/redis-helpers';
import { scrape, sampleOf } from '../../support/metrics';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';

const AVIF = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const MAX_BYTES = 262_144;

/** A PNG whose header claims `side`×`side` pixels over one real pixel's data: a decompression bomb's header. */
async function bombPng(side: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  const ihdr = png.subarray(12, 29);
  ihdr.writeUInt32BE(side, 4);
  ihdr.writeUInt32BE(side, 8);
  png.writeUInt32BE(crc32(ihdr), 29);
  return png;
}

interface Origin {
  url: string;
  close(): Promise<void>;
}

/** The hostile picture set, one path each, on a loopback origin of its own. */
async function startHostileOrigin(): Promise<Origin> {
  const photo = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#3a7' } })
    .withExif({ IFD0: { Copyright: 'secret-exif-marker', Artist: 'secret-exif-marker' } })
    .jpeg()
    .toBuffer();
  const bomb = await bombPng(60_000);
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const send = (type: string, body: Buffer | string): void => void res.writeHead(200, { 'Content-Type': type }).end(body);
    switch (req.url) {
      case '/photo.jpg':
        return send('image/jpeg', photo);
      case '/bomb.png':
        return send('image/png', bomb);
      case '/truncated.jpg':
        return send('image/jpeg', photo.subarray(0, Math.floor(photo.length / 2)));
      case '/not-a-picture.jpg':
        return send('image/jpeg', '<!doctype html><title>not a picture</title>');
      case '/script.svg':
        return send(
          'image/svg+xml',
          '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><script>alert(1)</script><rect width="800" height="600"/></svg>',
        );
      case '/redirect.jpg':
        return void res.writeHead(302, { Location: 'http://127.0.0.1:6379/' }).end();
      case '/huge.jpg':
        res.writeHead(200, { 'Content-Type': 'image/jpeg' });
        return void res.end(Buffer.alloc(MAX_BYTES * 4, 0xff));
      case '/slow.jpg':
        // Headers and a first slice, then nothing: the resizer's deadline must end the read.
        res.writeHead(200, { 'Content-Type': 'image/jpeg' });
        return void res.write(photo.subarray(0, 100));
      default:
        return void res.writeHead(404).end();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describeWithRedis()('the embedded resizer', () => {
  let origin: Origin;
  let other: Origin;
  let a: TestPortal;
  let b: TestPortal;
  let guarded: TestPortal;
  const img = (file: string, width = 480, from = origin.url): string =>
    resizedUrl({ kind: 'resizer', origins: [from], relative: false }, `${from}${file}`, width)!;

  beforeAll(async () => {
    origin = await startHostileOrigin();
    other = await startHostileOrigin();
    const env = {
      MEDIA_ORIGINS: origin.url,
      IMAGE_ALLOW_PRIVATE_SOURCES: '1',
      IMAGE_SOURCE_MAX_BYTES: String(MAX_BYTES),
      IMAGE_SOURCE_MAX_PIXELS: '4000000',
      IMAGE_SOURCE_TIMEOUT_MS: '1500',
    };
    a = await startTestPortal({ redisUrl: testRedisUrl(), env });
    b = await startTestPortal({ redisUrl: testRedisUrl(), env, upstream: a.upstream, cachePrefix: a.cachePrefix });
    // The shipped default: a media origin that is (or resolves to) a private address is refused.
    const { port } = new URL(origin.url);
    guarded = await startTestPortal({ env: { MEDIA_ORIGINS: `${origin.url},http://localhost:${port}` } });
  });
  afterAll(async () => {
    await deleteKeys(testRedisUrl(), a.cachePrefix);
    await guarded.close();
    await b.close();
    await a.close();
    await other.close();
    await origin.close();
  });

  it('draws a picture at the asked width, AVIF or WebP by Accept, metadata stripped, stored in Redis for every instance', async () => {
    const avif = await request(a.url).get(img('/photo.jpg')).set('Accept', AVIF);
    expect(avif.status).toBe(200);
    expect(avif.headers['content-type']).toBe('image/avif');
    expect(avif.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(avif.headers.vary).toMatch(/Accept/);
    const drawn = await sharp(avif.body as Buffer).metadata();
    expect(drawn.width).toBe(480);
    expect(drawn.exif).toBeUndefined();
    expect((avif.body as Buffer).includes('secret-exif-marker')).toBe(false);

    const webp = await request(a.url).get(img('/photo.jpg')).set('Accept', 'image/webp,*/*');
    expect(webp.headers['content-type']).toBe('image/webp');
    const jpeg = await request(a.url).get(img('/photo.jpg')).set('Accept', '*/*');
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect((jpeg.body as Buffer).length).toBeLessThan(40_000);

    const boxed = await request(a.url)
      .get(boxedUrl({ kind: 'resizer', origins: [origin.url], relative: false }, `${origin.url}/photo.jpg`, 1280, 240)!)
      .set('Accept', AVIF);
    expect(boxed.status).toBe(200);
    expect(await sharp(boxed.body as Buffer).metadata()).toMatchObject({ width: 384, height: 240 });

    const stored = await eventually(
      async () => (await keysOf(testRedisUrl(), a.cachePrefix)).filter((key) => key.includes(':img:')),
      (keys) => keys.length === 4,
    );
    expect(stored).toHaveLength(4);
    const fromB = await request(b.url).get(img('/photo.jpg')).set('Accept', AVIF);
    expect(fromB.headers['x-cache']).toBe('HIT');
    expect(Buffer.compare(fromB.body as Buffer, avif.body as Buffer)).toBe(0);
    expect(sampleOf(await scrape(a.url), 'portal_image_requests_total', { outcome: 'resized' })).toBe(4);
  });

  it.each([
    ['/bomb.png', 'too-many-pixels', 502],
    ['/truncated.jpg', 'not-a-picture', 502],
    ['/not-a-picture.jpg', 'not-a-picture', 502],
    ['/script.svg', 'format', 502],
    ['/redirect.jpg', 'redirect', 502],
    ['/huge.jpg', 'too-large', 502],
    ['/slow.jpg', 'timeout', 504],
    ['/missing.jpg', 'status', 502],
  ])('%s: the placeholder with a clear status (%s), kept a minute, counted', async (file, reason, status) => {
    const res = await request(a.url).get(img(file, 320)).set('Accept', AVIF);
    expect(res.status).toBe(status);
    expect(res.headers['x-image-fallback']).toBe(reason);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(String(res.body)).not.toMatch(/<script/i);
    expect(sampleOf(await scrape(a.url), 'portal_image_failures_total', { reason })).toBeGreaterThanOrEqual(1);
    // Stored as a failure: asked again, the original is not read again (no second count) and the answer is the same.
    const before = sampleOf(await scrape(a.url), 'portal_image_failures_total', { reason });
    const again = await request(a.url).get(img(file, 320)).set('Accept', AVIF);
    expect(again.status).toBe(status);
    expect(again.headers['x-cache']).toBe('HIT');
    expect(sampleOf(await scrape(a.url), 'portal_image_failures_total', { reason })).toBe(before);
  });

  it('refuses an origin not configured, a width no slot asks for and an address it never makes, reading nothing', async () => {
    const foreign = await request(a.url).get(img('/photo.jpg', 480, other.url));
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain('图片来源不在允许之列');
    const goodPath = img('/photo.jpg');
    for (const path of [goodPath.replace('/480/', '/481/'), goodPath.replace('/480/', '/99999/'), '/img/480/%2e%2e', `${goodPath}x!`]) {
      const res = await request(a.url).get(path);
      expect(res.status).toBe(404);
    }
    expect(sampleOf(await scrape(a.url), 'portal_image_requests_total', { outcome: 'refused' })).toBeGreaterThanOrEqual(4);
  });

  it('refuses a loopback origin by address and by a name resolving to it, unless private sources are allowed', async () => {
    const byAddress = await request(guarded.url).get(img('/photo.jpg'));
    expect(byAddress.status).toBe(502);
    expect(byAddress.headers['x-image-fallback']).toBe('private-address');
    const localhost = `http://localhost:${new URL(origin.url).port}`;
    const byName = await request(guarded.url).get(img('/photo.jpg', 480, localhost));
    expect(byName.status).toBe(502);
    expect(byName.headers['x-image-fallback']).toBe('private-address');
  });

  it('keeps memory bounded through rounds of the hostile set', async () => {
    const files = ['/bomb.png', '/truncated.jpg', '/not-a-picture.jpg', '/huge.jpg'];
    const rssBefore = process.memoryUsage().rss;
    // Distinct widths each round: past the stored failures, every request reads and refuses its original again.
    for (const width of [160, 240, 640, 960, 1280, 1920]) {
      await Promise.all(files.map((file) => request(a.url).get(img(file, width)).set('Accept', AVIF)));
    }
    const grown = process.memoryUsage().rss - rssBefore;
    // A bomb decoded would be 60000² pixels (over 10 GB); reading it and its peers 24 times costs a few MB.
    expect(grown).toBeLessThan(200 * 1024 * 1024);
  });
});
