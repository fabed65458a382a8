/** docs/product.md §9: visit statistics keyed per host. Each site's pages load the counter with its own host's id. */
import { createHash } from 'node:crypto';
import request from 'supertest';
import { REGIONAL_SITES } from '../../../shared/sites';
import { startTestPortal, type TestPortal } from '../../support/portal';

const regional = REGIONAL_SITES[0]!;
const unconfigured = REGIONAL_SITES[1]!;
const nonceOf = (csp: string | undefined) => /'nonce-([^']+)'/.exec(csp ?? '')?.[1];

describe('visit statistics per host', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal({
      env: {
        VISIT_STATS_IDS: `www.qnnews.cn=mainsite0001, ${regional.domain}=region0002`,
        VISIT_STATS_SCRIPT_URL: 'https://stats.example.cn/hm.js?{id}',
      },
    });
  });
  afterAll(async () => t.close());

  it('loads the counter of the main site with its id, async, queue first, from a script the CSP allows (nonce, then hash)', async () => {
    const first = await request(t.url).get('/');
    const hit = await request(t.url).get('/');
    const loader =
      'window._hmt=window._hmt||[];(function(d){var s=d.createElement("script");s.async=true;s.src="https://stats.example.cn/hm.js?mainsite0001";d.head.appendChild(s)})(document)';
    // Streamed: run by the response nonce. From the cache: the same script, run by its hash.
    const nonce = nonceOf(first.headers['content-security-policy']);
    expect(first.text).toContain(`<script nonce="${nonce}">${loader}</script>`);
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.text).toContain(`<script>${loader}</script>`);
    expect(hit.headers['content-security-policy']).toContain(`'sha256-${createHash('sha256').update(loader).digest('base64')}'`);
    // Inserted by an allowed script: 'strict-dynamic' lets the counter load from its own host.
    expect(hit.headers['content-security-policy']).toContain("'strict-dynamic'");
  });

  it('gives a regional site its own id, and a site without one no counter', async () => {
    const own = await request(t.url).get('/').set('Host', regional.domain);
    expect(own.text).toContain('hm.js?region0002');
    expect(own.text).not.toContain('mainsite0001');
    const none = await request(t.url).get('/').set('Host', unconfigured.domain);
    expect(none.status).toBe(200);
    expect(none.text).not.toContain('stats.example.cn');
    expect(none.text).not.toContain('_hmt');
  });
});
