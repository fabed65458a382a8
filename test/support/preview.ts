/**
 * The CMS's side of the editors' preview (docs/preview.md) for suites that open one: a signed link, the cookie
 * it sets; and what a prefix holds in Redis, as text, to show that nothing of a draft was stored.
 */
import Redis from 'ioredis';
import request from 'supertest';
import { decodeEntry } from '../../server/cache/entry-codec';
import { decodePage } from '../../server/cache/stored-page';
import { PREVIEW_COOKIE } from '../../server/preview/contract';
import { signPreviewLink } from '../../server/preview/preview-link';

/** `/_preview?path=…&t=…&sig=…` for `path`, made at `at` (unix seconds, default now) as the CMS makes it. */
export function previewLink(secret: string, path: string, at = Math.floor(Date.now() / 1000)): string {
  const query = new URLSearchParams({ path, t: String(at), sig: signPreviewLink(secret, at, path) });
  return `/_preview?${query}`;
}

/** The `name=value` of the cookie a response sets, or null. */
export function cookieSet(setCookie: string[] | string | undefined, name: string): string | null {
  const lines = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const line = lines.find((candidate) => candidate.startsWith(`${name}=`));
  return line ? line.split(';', 1)[0]! : null;
}

/** Opens a preview of `path` on `host` through a fresh signed link: the `Cookie` header value it gives. */
export async function openPreview(url: string, host: string, secret: string, path: string): Promise<string> {
  const res = await request(url).get(previewLink(secret, path)).set('host', host);
  if (res.status !== 303) throw new Error(`preview link for ${path} answered ${res.status}: ${res.text.slice(0, 200)}`);
  const cookie = cookieSet(res.headers['set-cookie'], PREVIEW_COOKIE);
  if (!cookie) throw new Error('preview link set no cookie');
  return cookie;
}

/** Every entry of the prefix in Redis as text (a page's uncompressed form, a data answer's JSON), by key. */
export async function storedTexts(redisUrl: string, prefix: string): Promise<Map<string, string>> {
  const client = new Redis(redisUrl);
  try {
    const texts = new Map<string, string>();
    for (const key of await client.keys(`${prefix}:*`)) {
      if ((await client.type(key)) !== 'string') continue;
      const raw = await client.getBuffer(key);
      const entry = raw ? decodeEntry(raw) : null;
      if (!entry) continue;
      const value = Buffer.isBuffer(entry.value) && key.includes(':page:') ? decodePage(entry.value).identity.toString('utf8') : String(entry.value);
      texts.set(key, value);
    }
    return texts;
  } finally {
    client.disconnect();
  }
}
