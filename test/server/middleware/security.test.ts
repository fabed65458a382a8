/** The security headers of a page response, as a browser receives them. */
import request from 'supertest';
import { PERMISSIONS_POLICY } from '../../../server/middleware/security';
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
