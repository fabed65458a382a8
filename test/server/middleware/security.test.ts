/** The security headers of a page response, as a browser receives them. */
import request from 'supertest';
import type { ServerResponse } from 'node:http';
import { newNonce, PERMISSIONS_POLICY, securityHeaders } from '../../../server/edge/security';
import { startTestPortal } from '../../support/portal';

describe('security headers', () => {
  it('sends a strict CSP, frame-ancestors, Referrer-Policy, Permissions-Policy and HSTS on https sites', async () => {
    const t = await startTestPortal();
    try {
      const res = await request(t.url).get('/');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers['x-powered-by']).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('sends no HSTS when the sites are served over plain http', async () => {
    const t = await startTestPortal({ env: { PUBLIC_ORIGIN_PROTOCOL: 'http' } });
    try {
      expect((await request(t.url).get('/')).headers['strict-transport-security']).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('security headers made once', () => {
  function applied(nonce: string): Map<string, string> {
    const headers = new Map<string, string>();
    const res = { setHeader: (name: string, value: unknown) => headers.set(name, String(value)) } as unknown as ServerResponse;
    securityHeaders({ mediaOrigins: ['https://media.example.cn'], https: true, frameOrigins: ['https://open.weixin.qq.com'] }).apply(res, nonce);
    return headers;
  }

  it('puts the response nonce in the CSP and nothing else changes between responses', () => {
    const [first, second] = [newNonce(), newNonce()];
    const a = applied(first);
    const b = applied(second);
    const csp = a.get('Content-Security-Policy') ?? '';
    expect(csp).toContain(`script-src 'nonce-${first}' 'strict-dynamic' 'self'`);
    expect(csp).toContain("img-src 'self' data: https: https://media.example.cn");
    // The login dialog frames WeChat's QR page, and nothing else from outside.
    expect(csp).toContain("frame-src 'self' https://open.weixin.qq.com");
    expect(csp).not.toContain('NONCEMARK');
    expect(b.get('Content-Security-Policy')).toBe(csp.replace(first, second));
    expect([...a.keys()]).toEqual([...b.keys()]);
    expect(a.get('Permissions-Policy')).toBe(PERMISSIONS_POLICY);
    expect(a.get('Strict-Transport-Security')).toBe('max-age=31536000; includeSubDomains');
    expect(a.get('X-Frame-Options')).toBe('SAMEORIGIN');
  });

  it("gives a stored page's CSP its script hashes where a response's nonce goes, and the same headers otherwise", () => {
    const options = { mediaOrigins: ['https://media.example.cn'], https: true, frameOrigins: ['https://open.weixin.qq.com'] };
    const security = securityHeaders(options);
    const nonce = newNonce();
    const hashes = "'sha256-a4ayc/80/OGda4BO/1o/V0etpOqiLx1JwB5S3beHW0s=' 'sha256-1B6ruR9hjJhRWvLO0Rl1iuQYRJk/sYtPYIAxjmcaAcw='";
    const nonced = applied(nonce).get('Content-Security-Policy')!;
    const shared = security.sharedPolicy(hashes);
    expect(shared).toBe(nonced.replace(`'nonce-${nonce}'`, hashes));
    expect(shared).toContain(`script-src ${hashes} 'strict-dynamic' 'self'`);
    expect(shared).not.toMatch(/'nonce-|NONCEMARK/);
    expect(/(?:^|;)script-src ([^;]*)/.exec(shared)?.[1]).not.toContain("'unsafe-inline'");
    expect(shared).toMatch(/(?:^|;)object-src 'none'/);
    expect(shared).toMatch(/(?:^|;)base-uri 'self'/);
    // The hit path's flat list: the same headers in the same order as apply sets them, the CSP the shared one.
    const flat: string[] = [];
    security.appendShared(flat, hashes);
    const names = flat.filter((_, index) => index % 2 === 0);
    expect(names).toEqual([...applied(nonce).keys()]);
    expect(flat[1]).toBe(shared);
  });
});
