/**
 * A page as it is stored and sent (stored-page.ts): sealed (the render's nonce out, the scripts that carried it
 * allowed by their hashes, nothing else), compressed into forms that decode to the same text, encoded and decoded
 * whole or one form at a time.
 */
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressPage, decodePage, decodePageForm, encodePage, etagOf, PAGE_FORMS, PAGE_HEAD_BYTES, sealPage } from '../../../server/cache/stored-page';
import { PAGES, RENDER_NONCE } from './page-shapes';

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('sealPage', () => {
  it.each(PAGES)('%s: the nonce out, each nonced script allowed by its hash, once', (_name, html) => {
    const sealed = sealPage(Buffer.from(html, 'utf8'), RENDER_NONCE);
    expect(sealed).not.toBeNull();
    const text = sealed!.html.toString('utf8');
    expect(text).toBe(html.split(` nonce="${RENDER_NONCE}"`).join(''));
    const scripts = [...html.matchAll(new RegExp(`<script nonce="${RENDER_NONCE}"[^>]*>([\\s\\S]*?)</script>`, 'g'))].map((match) => hashOf(match[1]!));
    expect(sealed!.scripts.split(' ').filter(Boolean)).toEqual([...new Set(scripts)]);
  });

  it('hashes no script that did not carry the nonce (an article body’s, another nonce)', () => {
    const html = `<script nonce="${RENDER_NONCE}">ours()</script><script>alert(1)</script><script nonce="b3RoZXI=">alert(2)</script>`;
    const sealed = sealPage(Buffer.from(html), RENDER_NONCE)!;
    expect(sealed.scripts).toBe(hashOf('ours()'));
  });

  it.each([
    ['on another element', `<link rel="modulepreload" href="/a.js" nonce="${RENDER_NONCE}">`],
    ['as text', `<p>${RENDER_NONCE}</p>`],
    ['in a script not closed', `<script nonce="${RENDER_NONCE}">1`],
    ['not first on the script', `<script type="module" nonce="${RENDER_NONCE}">1</script>`],
  ])('refuses a page with the nonce left %s (nothing stored)', (_name, html) => {
    expect(sealPage(Buffer.from(html), RENDER_NONCE)).toBeNull();
  });
});

describe('compressPage and the stored form', () => {
  it.each(PAGES)('%s: every form is the sealed text; encoded and decoded whole and form by form', async (_name, html) => {
    const sealed = sealPage(Buffer.from(html, 'utf8'), RENDER_NONCE)!;
    const page = await compressPage(sealed);
    expect(page.identity.equals(sealed.html)).toBe(true);
    expect(gunzipSync(page.gzip).equals(sealed.html)).toBe(true);
    expect(brotliDecompressSync(page.br).equals(sealed.html)).toBe(true);
    const bytes = encodePage(page);
    const whole = decodePage(bytes);
    expect(PAGE_FORMS.map((form) => whole[form].equals(page[form]))).toEqual([true, true, true]);
    expect([whole.etag, whole.scripts]).toEqual([page.etag, page.scripts]);
    const headEnd = PAGE_HEAD_BYTES + bytes.readUInt32BE(4);
    let at = headEnd;
    for (const form of PAGE_FORMS) {
      const held = decodePageForm(bytes.subarray(0, headEnd), form, bytes.subarray(at, at + page[form].length));
      at += page[form].length;
      expect(held[form]!.equals(page[form])).toBe(true);
      expect(PAGE_FORMS.filter((other) => other !== form).map((other) => held[other])).toEqual([null, null]);
    }
  });

  it('gives each form its own strong ETag, the same for the same text', async () => {
    const one = await compressPage(sealPage(Buffer.from(PAGES[1]![1]), RENDER_NONCE)!);
    const two = await compressPage(
      sealPage(Buffer.from(PAGES[1]![1].replace(RENDER_NONCE, 'YW5vdGhlcg==').split(RENDER_NONCE).join('YW5vdGhlcg==')), 'YW5vdGhlcg==')!,
    );
    const tags = PAGE_FORMS.map((form) => etagOf(one, form));
    expect(new Set(tags).size).toBe(3);
    expect(tags.every((tag) => /^"[^"]+"$/.test(tag))).toBe(true);
    expect(PAGE_FORMS.map((form) => etagOf(two, form))).toEqual(tags);
  });

  it('refuses a layout whose script sources are anything but hashes (a stored value must not widen the CSP)', async () => {
    const page = await compressPage(sealPage(Buffer.from(PAGES[1]![1]), RENDER_NONCE)!);
    expect(() => decodePage(encodePage({ ...page, scripts: "'unsafe-inline'" }))).toThrow();
    expect(() => decodePage(encodePage({ ...page, scripts: `${page.scripts} https://evil.example` }))).toThrow();
  });
});
