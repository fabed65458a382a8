/**
 * Issue 51, item 3: every text a reader can be shown is Chinese. Each way the portal answers a browser with a
 * message of its own instead of a page (404 and 400 documents, the editors' preview refusals, sign-in refusals, a
 * feed or QR image that does not exist) is asked for, and the text the browser would show (tags, scripts and
 * styles left out) holds no sentence in Latin letters: three Latin words in a row. A name or an algorithm
 * (HMAC-SHA256, PREVIEW_SECRET, a path) may stand in a Chinese sentence.
 */
import request from 'supertest';
import { PREVIEW_LINK_SECONDS } from '../../server/preview/contract';
import { signPreviewLink } from '../../server/preview/preview-link';
import { MAIN_DOMAIN } from '../../shared/sites';
import { startTestPortal, type TestPortal } from '../support/portal';

const PREVIEW_SECRET = 'a-preview-secret-the-cms-signs-its-links-with-0123';
const LATIN_SENTENCE = /[A-Za-z]{2,}(?:[\s,;:.'’()-]+[A-Za-z]{2,}){2,}/;

/** What a browser shows of an HTML or plain-text answer. */
function shownText(body: string, contentType: string): string {
  if (!contentType.startsWith('text/html')) return body;
  return body
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<title>[\s\S]*?<\/title>/i, (title) => ` ${title} `)
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/g, ' ');
}

describe('texts a reader is shown', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal({ env: { PREVIEW_SECRET } });
  });
  afterAll(() => t?.close());

  const now = () => Math.floor(Date.now() / 1000);
  const preview = (query: Record<string, string>) => `/_preview?${new URLSearchParams(query)}`;
  const signed = (path: string, at: number) => ({ path, t: String(at), sig: signPreviewLink(PREVIEW_SECRET, at, path) });

  it.each<[string, 'GET' | 'POST', () => string, number]>([
    ['a page that does not exist', 'GET', () => '/no-such-page', 404],
    ['a path the site does not spell', 'GET', () => '/detail/abc', 404],
    ['a malformed path', 'GET', () => '/%E0%A4%A', 400],
    ['a feed of no category', 'GET', () => '/rss/99999999.xml', 404],
    ['a QR image of nothing', 'GET', () => '/assets/qr/%21%21.svg', 404],
    ['a preview link without its signature', 'GET', () => preview({ path: '/about', t: String(now()) }), 401],
    ['a preview link signed for another path', 'GET', () => preview({ ...signed('/about', now()), path: '/siteMap' }), 401],
    ['a preview link past its time', 'GET', () => preview(signed('/about', now() - PREVIEW_LINK_SECONDS - 5)), 401],
    ['a preview link dated ahead', 'GET', () => preview(signed('/about', now() + 600)), 401],
    ['a preview link to no page', 'GET', () => preview(signed('/_internal/purges', now())), 401],
    ['a preview link with a malformed signature', 'GET', () => preview({ path: '/about', t: String(now()), sig: 'xyz' }), 401],
    ['a sign-in callback of no sign-in', 'GET', () => '/login/wechat/callback?code=abc&state=def', 400],
    ['a log-out from another site', 'POST', () => '/logout', 403],
  ])('%s: its message is Chinese', async (_name, method, path, status) => {
    const call = method === 'GET' ? request(t.url).get(path()) : request(t.url).post(path()).set('Origin', 'https://evil.example');
    const res = await call.set('Host', MAIN_DOMAIN).buffer(true);
    expect(res.status).toBe(status);
    const contentType = String(res.headers['content-type'] ?? '');
    const text = shownText(res.text, contentType);
    // Something was said (a message, not an empty answer), and it has Chinese in it.
    expect(text).toMatch(/[\u4e00-\u9fff]{2,}/);
    expect(LATIN_SENTENCE.exec(text)?.[0] ?? null).toBeNull();
  });
});
