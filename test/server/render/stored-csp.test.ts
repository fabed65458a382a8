/**
 * One document for every reader (docs/security-headers.md): a page served from the cache carries a CSP that
 * allows each of its executable scripts by its SHA-256 and no nonce, every other script element is an inert
 * data block, and two readers get the same bytes in every form. A page streamed to one reader (its MISS) runs by
 * a nonce and is not offered to shared caches. Every page kind, from L1 and from Redis read one form at a time.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { pagesOfEveryKind } from '../../support/page-kinds';
import { redisPortalSuite } from '../../support/redis-portal';
import { describeWithRedis } from '../../support/requirements';

interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** node:http, not fetch: fetch decodes bodies and adds `Cache-Control: no-cache` to a conditional request. */
function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'identity', ...headers }, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('end', () => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') answerHeaders.set(name, value);
          resolve({ status: res.statusCode ?? 0, headers: answerHeaders, body: Buffer.concat(parts) });
        });
      })
      .on('error', reject);
  });
}

/** The script sources of a CSP's script-src. */
function scriptSources(csp: string): string[] {
  return /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1]?.trim().split(/\s+/) ?? [];
}

const EXECUTABLE_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript']);
const DATA_TYPES = new Set(['application/json', 'application/ld+json']);

interface ScriptElement {
  attributes: string;
  type: string;
  text: string;
}

function scriptsOf(html: string): ScriptElement[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].map(([, attributes = '', text = '']) => ({
    attributes,
    type: /\btype="([^"]*)"/i.exec(attributes)?.[1]?.toLowerCase() ?? '',
    text,
  }));
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Every script of the page is allowed by a hash in the CSP, or is a data block the browser never runs. */
function expectScriptsHeldToHashes(path: string, html: string, csp: string): void {
  const sources = scriptSources(csp);
  const scripts = scriptsOf(html);
  expect({ path, executable: scripts.filter((script) => EXECUTABLE_TYPES.has(script.type)).length }).toEqual({ path, executable: expect.any(Number) });
  for (const script of scripts) {
    if (DATA_TYPES.has(script.type)) continue;
    expect({ path, type: script.type, executable: EXECUTABLE_TYPES.has(script.type) }).toEqual({ path, type: script.type, executable: true });
    // Inline, with its hash in the header; no src (a parser-inserted external script runs by no hash).
    expect({ path, attributes: script.attributes, src: /\bsrc=/i.test(script.attributes) }).toEqual({ path, attributes: script.attributes, src: false });
    expect({ path, script: script.text.slice(0, 80), allowed: sources.includes(sha256(script.text)) }).toEqual({
      path,
      script: script.text.slice(0, 80),
      allowed: true,
    });
  }
}

/** The stored-page CSP: hashes, 'strict-dynamic', no nonce, no 'unsafe-inline'; plugins and <base> shut. */
function expectSharedPolicy(csp: string): void {
  const sources = scriptSources(csp);
  expect(sources).toContain("'strict-dynamic'");
  expect(sources.filter((source) => source.startsWith("'sha256-")).length).toBeGreaterThanOrEqual(3);
  expect(csp).not.toMatch(/'nonce-/);
  expect(sources).not.toContain("'unsafe-inline'");
  expect(csp).toMatch(/(?:^|;)\s*object-src 'none'/);
  expect(csp).toMatch(/(?:^|;)\s*base-uri 'self'/);
}

function decoded(answer: Answer): Buffer {
  const coding = answer.headers.get('content-encoding');
  if (coding === 'gzip') return gunzipSync(answer.body);
  if (coding === 'br') return brotliDecompressSync(answer.body);
  return answer.body;
}

/** A cached page until its HIT: the first request renders (MISS), later ones are answered from the cache. */
async function hitOf(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const answer = await get(`${base}${path}`, headers);
    if (answer.headers.get('x-cache') === 'HIT') return answer;
    expect({ path, status: answer.status }).toEqual({ path, status: 200 });
    // The streamed MISS: its own nonce, never offered to a shared cache.
    expect({ path, nonce: /'nonce-/.test(answer.headers.get('content-security-policy') ?? '') }).toEqual({ path, nonce: true });
    expect({ path, cacheControl: answer.headers.get('cache-control') }).toEqual({ path, cacheControl: 'private, no-store' });
    // The store is issued before the MISS ends; a Redis write may still be on its way.
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`${path} never became a HIT`);
}

async function expectEveryKindServedAsStored(portal: TestPortal): Promise<void> {
  const paths = await pagesOfEveryKind(portal.url);
  for (const path of paths) {
    const hit = await hitOf(portal.url, path);
    const csp = hit.headers.get('content-security-policy') ?? '';
    expectSharedPolicy(csp);
    const html = hit.body.toString('utf8');
    expect({ path, nonceAttribute: /\snonce=/.test(html) }).toEqual({ path, nonceAttribute: false });
    expectScriptsHeldToHashes(path, html, csp);
    // Another reader, in every form: the same bytes, the same CSP, a strong ETag per form.
    for (const coding of ['identity', 'gzip', 'br']) {
      const [one, two] = [await get(`${portal.url}${path}`, { 'accept-encoding': coding }), await get(`${portal.url}${path}`, { 'accept-encoding': coding })];
      expect([one.headers.get('content-encoding') ?? 'identity', two.headers.get('content-encoding') ?? 'identity']).toEqual([coding, coding]);
      expect(two.body.equals(one.body)).toBe(true);
      expect(decoded(one).toString('utf8')).toBe(html);
      expect(one.headers.get('content-security-policy')).toBe(csp);
      expect(one.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+(?:-gzip|-br)?"$/);
      const notModified = await get(`${portal.url}${path}`, { 'accept-encoding': coding, 'if-none-match': one.headers.get('etag')! });
      expect(notModified.status).toBe(304);
    }
  }
}

describe('pages served as stored (L1)', () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await startTestPortal();
  });
  afterAll(async () => portal?.close());

  it('every page kind: each executable script allowed by a hash in the header, data blocks inert, one set of bytes per form', async () => {
    await expectEveryKindServedAsStored(portal);
  }, 240_000);

  it('a page never stored (a missing page, every time) keeps a fresh nonce and is never shared', async () => {
    const nonces = new Set<string>();
    for (let visit = 0; visit < 2; visit++) {
      const answer = await get(`${portal.url}/no-such-page`);
      expect(answer.status).toBe(404);
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(answer.headers.get('content-security-policy') ?? '')?.[1];
      expect(answer.body.toString('utf8')).toContain(`<script nonce="${nonce}"`);
      nonces.add(String(nonce));
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
    }
    expect(nonces.size).toBe(2);
  });
});

describeWithRedis()('pages served as stored (Redis, L1 off: one form read per hit)', () => {
  const suite = redisPortalSuite({ env: { L1_CACHE_MAX_MB: '0' } });

  it('every page kind, read from Redis: the same hashes, bytes and forms', async () => {
    await expectEveryKindServedAsStored(suite.portal);
  }, 240_000);
});

describe('a page whose blocks streamed in after its shell', () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await startTestPortal();
  });
  afterAll(async () => portal?.close());

  it("stores React's inline instructions allowed by their hashes, as it stores the portal's own scripts", async () => {
    // The column authors' block answers late: home's shell goes out first, the block after it, moved in place
    // by React's inline scripts.
    portal.upstream.api.control.setLatency([{ path: '/api/special_column_author/list', ms: 400 }]);
    const miss = await get(`${portal.url}/`);
    portal.upstream.api.control.reset();
    expect(miss.headers.get('x-cache')).toBe('MISS');
    const nonce = /'nonce-([^']+)'/.exec(miss.headers.get('content-security-policy') ?? '')![1]!;
    const instructions = scriptsOf(miss.body.toString('utf8')).filter((script) => /\$R[A-Z]+\s*[=(]/.test(script.text));
    expect(instructions.length).toBeGreaterThan(0);
    expect(instructions.every((script) => script.attributes.startsWith(` nonce="${nonce}"`))).toBe(true);
    const hit = await hitOf(portal.url, '/');
    const csp = hit.headers.get('content-security-policy') ?? '';
    const html = hit.body.toString('utf8');
    expect(html).toBe(miss.body.toString('utf8').split(` nonce="${nonce}"`).join(''));
    expectScriptsHeldToHashes('/', html, csp);
    for (const script of instructions) expect(scriptSources(csp)).toContain(sha256(script.text));
  }, 60_000);
});
