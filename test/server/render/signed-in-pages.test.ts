/**
 * Privacy of pages (issue 6): two signed-in readers asking for the same page at once each get a private render
 * with only their own name, while anonymous readers get the shared cached page, which holds no user data; the
 * page cache never stores a render made for a signed-in reader.
 */
import Redis from 'ioredis';
import type { TestPortal } from '../../support/portal';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { signIn, mainSitePage, startSignInPortal, type SignInPortal } from '../../support/sign-in';

describeWithRedis()('pages for signed-in readers', () => {
  let portal: SignInPortal;
  let t: TestPortal;

  beforeAll(async () => {
    portal = await startSignInPortal();
    ({ t } = portal);
  });
  afterAll(async () => portal?.close());

  const get = (path: string, session?: string) => mainSitePage(t, path, session);

  it('each reader sees only their own name; the anonymous reader gets the cached page with no name', async () => {
    const [alice, bob] = await Promise.all([signIn(t, '读者甲'), signIn(t, '读者乙')]);
    const path = '/V1/2728';
    const warm = await get(path);
    expect(warm.status).toBe(200);

    for (let round = 0; round < 3; round += 1) {
      const [a, b, anonymous] = await Promise.all([get(path, alice), get(path, bob), get(path)]);
      expect(a.text).toContain('读者甲');
      expect(a.text).not.toContain('读者乙');
      expect(b.text).toContain('读者乙');
      expect(b.text).not.toContain('读者甲');
      for (const signedIn of [a, b]) {
        expect(signedIn.headers['cache-control']).toBe('private, no-store');
        expect(signedIn.headers['x-cache']).toBe('PASS');
        expect(signedIn.headers['surrogate-key']).toBeUndefined();
      }
      expect(anonymous.headers['x-cache']).toMatch(/HIT|STALE/);
      expect(anonymous.headers['cache-control']).toMatch(/^public/);
      expect(anonymous.text).not.toMatch(/读者甲|读者乙|user-menu/);
      expect(anonymous.text).toContain('top-bar__subscribe');
    }

    // Nothing in Redis but sessions mentions a reader: no page or data entry was made from a signed-in render.
    const client = new Redis(testRedisUrl());
    try {
      const keys = (await client.keys(`${t.cachePrefix}:*`)).filter((key) => !key.includes(':session:') && !key.includes(':login:'));
      expect(keys.some((key) => key.includes(':page:'))).toBe(true);
      for (const key of keys) {
        const type = await client.type(key);
        if (type !== 'string') continue;
        const value = (await client.get(key)) ?? '';
        expect([key, /读者甲|读者乙|user_id/.test(value)]).toEqual([key, false]);
      }
    } finally {
      client.disconnect();
    }
  });

  it('a page first asked for by a signed-in reader is not stored; the next anonymous reader renders it afresh', async () => {
    const session = await signIn(t, '读者丙');
    const first = await get('/V2/2728', session);
    expect(first.headers['x-cache']).toBe('PASS');
    const anonymous = await get('/V2/2728');
    expect(anonymous.headers['x-cache']).toBe('MISS');
    expect(anonymous.text).not.toContain('读者丙');
  });

  it('no token reaches the HTML of a signed-in page', async () => {
    const session = await signIn(t, '读者丁');
    const page = await get('/about', session);
    expect(page.text).toContain('读者丁');
    // Tokens are 48 hex characters in the reference API; none may appear, nor the session id itself.
    expect(page.text).not.toMatch(/[0-9a-f]{48}/);
    expect(page.text).not.toContain(session);
    expect(page.text).not.toMatch(/"token"/);
  });
});
