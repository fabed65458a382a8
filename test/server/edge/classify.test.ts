/** How a request is classified where it enters (server/edge/classify.ts, server/edge/page-request.ts), rule by rule. */
import http from 'node:http';
import { Socket } from 'node:net';
import { addressOf } from '../../../shared/page-address';
import { classifyRequest, mobileDetailTarget, sharedCopyAnswers, type RequestHead } from '../../../server/edge/classify';
import { requestHeadOf } from '../../../server/edge/page-request';
import { newPreviewSession } from '../../../server/preview/preview-session';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const MOBILE_SITE = 'https://m.qnnews.cn/pages/detail';
const SECRET = 'preview-secret-of-at-least-32-characters!';
const SESSION = 'f'.repeat(64);

const visitor: RequestHead = { userAgent: DESKTOP, preview: false, sessionCookie: false, readerCookie: false };

/** The class of a request for `target` (path and query) with the given head. */
function classOf(target: string, head: Partial<RequestHead> = {}) {
  const url = new URL(target, 'http://portal.invalid');
  const address = addressOf(url.pathname, url.searchParams);
  const request = classifyRequest({ address, params: url.searchParams }, { ...visitor, ...head });
  return { address, request };
}

describe('who a request is for', () => {
  it.each<[string, Partial<RequestHead>, string]>([
    ['a visitor', {}, 'anonymous'],
    ['a crawler', { userAgent: GOOGLEBOT }, 'crawler'],
    ['a session cookie of ours', { sessionCookie: true }, 'signed-in'],
    ['a crawler with a session cookie (the session decides)', { userAgent: GOOGLEBOT, sessionCookie: true }, 'signed-in'],
    ['an editor in a preview', { preview: true }, 'preview'],
    ['an editor in a preview who is signed in too (the preview comes first)', { preview: true, sessionCookie: true }, 'preview'],
  ])('%s', (_name, head, audience) => {
    expect(classOf('/home', head).request.audience).toBe(audience);
  });
});

describe('whose page a signed-in reader gets', () => {
  it.each<[string, string, Partial<RequestHead>, boolean]>([
    ['a visitor on the personal center (its sign-in prompt is shared)', '/personalCenter', {}, false],
    ['a signed-in reader with the reader cookie on a shared page', '/home', { sessionCookie: true, readerCookie: true }, false],
    ['a signed-in reader on the personal center', '/personalCenter', { sessionCookie: true, readerCookie: true }, true],
    ['a session from before the reader cookie', '/home', { sessionCookie: true }, true],
    ['an editor in a preview on the personal center', '/personalCenter', { preview: true, sessionCookie: true }, false],
  ])('%s', (_name, target, head, ownPage) => {
    expect(classOf(target, head).request.ownPage).toBe(ownPage);
  });
});

describe('which device it is answered for', () => {
  it.each<[string, string, string, { varyUserAgent: boolean; phone: boolean }]>([
    ['a phone on an article', '/detail/2728/33727', IPHONE, { varyUserAgent: true, phone: true }],
    ['a desktop on an article', '/detail/2728/33727', DESKTOP, { varyUserAgent: true, phone: false }],
    ['a phone on the home page', '/home', IPHONE, { varyUserAgent: false, phone: false }],
  ])('%s', (_name, target, userAgent, expected) => {
    expect(classOf(target, { userAgent }).request).toMatchObject(expected);
  });

  it('sends a phone to the mobile site with catid and id; anyone else nowhere', () => {
    const phone = classOf('/detail/2728/33727', { userAgent: IPHONE });
    expect(mobileDetailTarget(phone.address.match, phone.request, MOBILE_SITE)).toBe(`${MOBILE_SITE}?catid=2728&id=33727`);
    const desktop = classOf('/detail/2728/33727');
    expect(mobileDetailTarget(desktop.address.match, desktop.request, MOBILE_SITE)).toBeNull();
  });

  it('signs the mobile link of an editor in a preview, and only theirs', () => {
    const editor = classOf('/detail/2728/33727', { userAgent: IPHONE, preview: true });
    const signed = new URL(mobileDetailTarget(editor.address.match, editor.request, MOBILE_SITE, SECRET) ?? '');
    expect([...signed.searchParams.keys()].length).toBeGreaterThan(2);
    const reader = classOf('/detail/2728/33727', { userAgent: IPHONE });
    expect(mobileDetailTarget(reader.address.match, reader.request, MOBILE_SITE, SECRET)).toBe(`${MOBILE_SITE}?catid=2728&id=33727`);
  });
});

describe('whether it belongs at another address', () => {
  it.each<[string, string, string | null]>([
    ['a page', '/home', null],
    ['the search form', '/search?q=%E9%9D%92%E5%B9%B4', '/search/6Z2S5bm0/1'],
    ['the search form with no keyword', '/search?q=', '/search'],
    ["a family root without its id (the route's own redirect)", '/V1', '/'],
  ])('%s', (_name, target, redirect) => {
    expect(classOf(target).request.redirect).toBe(redirect);
  });
});

describe('whether the shared copy answers it (the cached-hit path)', () => {
  it.each<[string, string, Partial<RequestHead>, boolean]>([
    ['a visitor on a page', '/home', {}, true],
    ['a crawler on a page', '/home', { userAgent: GOOGLEBOT }, true],
    ['a signed-in reader with the reader cookie', '/home', { sessionCookie: true, readerCookie: true }, true],
    ['a signed-in reader on the personal center', '/personalCenter', { sessionCookie: true, readerCookie: true }, false],
    ['an editor in a preview', '/home', { preview: true }, false],
    ['a phone on an article', '/detail/2728/33727', { userAgent: IPHONE }, false],
    ['the search form', '/search?q=x', {}, false],
    ['a path that is no page', '/no/such/page', {}, false],
  ])('%s: %s', (_name, target, head, answers) => {
    const { address, request } = classOf(target, head);
    expect(sharedCopyAnswers(address, request)).toBe(answers);
  });
});

describe("a request's head, read once", () => {
  function headOf(cookie: string | undefined, secret: string | undefined): RequestHead {
    const socket = new Socket();
    const req = new http.IncomingMessage(socket);
    req.headers = { 'user-agent': DESKTOP, ...(cookie === undefined ? {} : { cookie }) };
    try {
      return requestHeadOf(req, secret);
    } finally {
      socket.destroy();
    }
  }

  it('reads a session cookie of ours and the reader cookie, whatever their order', () => {
    expect(headOf(`portal_reader=x; a=1; portal_session=${SESSION}`, undefined)).toEqual({ ...visitor, sessionCookie: true, readerCookie: true });
  });

  it.each([
    ['a session cookie of another shape', 'portal_session=abc'],
    ['a cookie whose name only ends like ours', `xportal_session=${SESSION}`],
    ['no cookie at all', undefined],
  ])('takes %s for no session', (_name, cookie) => {
    expect(headOf(cookie, undefined).sessionCookie).toBe(false);
  });

  it('takes a preview cookie for a preview only when PREVIEW_SECRET vouches for it', () => {
    const { value } = newPreviewSession(SECRET);
    expect(headOf(`portal_preview=${value}`, SECRET).preview).toBe(true);
    expect(headOf(`portal_preview=${value}`, undefined).preview).toBe(false);
    expect(headOf(`portal_preview=${value}`, 'another-secret-of-at-least-32-characters').preview).toBe(false);
    expect(headOf('portal_preview=v1.1.forged', SECRET).preview).toBe(false);
  });
});
