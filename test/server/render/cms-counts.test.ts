/**
 * What the CMS sends does not size the page (docs/pages.md, "Bounds on what the CMS sends"): a real upstream in
 * front of the reference API inflates every category tree to 2000 children and every list to 3000 items. The home
 * and list pages then stay within their documented blocks, items, bytes, header block and upstream calls per
 * render, as measured against the same pages over the answers as they are.
 */
import http from 'node:http';
import request from 'supertest';
import { startReferenceApi } from '../../../scripts/reference-api/server';
import { HOME_CATEGORY_LIST_SIZE, HOME_CATID, HOME_MAX_BLOCKS } from '../../../shared/constants';
import { CATEGORY_PAGE_SIZE } from '../../../server/pages/category-list/loader';
import { MAIN_SITE, REGIONAL_SITES } from '../../../shared/sites';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../../support/portal';
import { startRewritingUpstream, type RewritingUpstream } from '../../support/rewriting-upstream';
import { homeCategories } from '../../support/upstream-data';

const CHILDREN = 2000;
const ITEMS = 3000;
/** docs/pages.md: the bounds this test holds the pages to. */
const HOME_MAX_BYTES = 256 * 1024;
const LIST_MAX_BYTES = 160 * 1024;
const HEADER_BLOCK_MAX_BYTES = 8 * 1024;
const HOME_MAX_CALLS = HOME_MAX_BLOCKS + 24;
const LIST_MAX_CALLS = 24;

type Json = Record<string, unknown>;

/** Each entry copied to `count`, the copies with ids of their own (so each is a distinct category or article). */
function inflate(list: unknown[], count: number, idField: 'catid' | 'id'): unknown[] {
  if (list.length === 0) return list;
  return Array.from({ length: count }, (_, index) => {
    const entry = list[index % list.length] as Json;
    if (index < list.length) return entry;
    const copy: Json = { ...entry, [idField]: Number(entry[idField]) + 1_000_000 + index };
    // A copied category brings no grandchildren: 2000 of 2000 would be an answer no limit lets through anyway.
    if (idField === 'catid') copy.children = [];
    return copy;
  });
}

/** The category index's children, the menu, and every list of articles, inflated. */
function inflateAnswer(key: string, value: unknown): unknown {
  if (key !== 'data') return value;
  // The menu: a list of categories (a catname each).
  if (Array.isArray(value)) return value.length > 0 && typeof (value[0] as Json).catname === 'string' ? inflate(value, CHILDREN, 'catid') : value;
  if (value === null || typeof value !== 'object') return value;
  const data = { ...(value as Json) };
  if (Array.isArray(data.children)) data.children = inflate(data.children, CHILDREN, 'catid');
  if (Array.isArray(data.lists)) data.lists = inflate(data.lists, ITEMS, 'id');
  // Paged lists of articles (headlines, searches, tags): the items of an article list carry list_title.
  if (Array.isArray(data.list) && data.list.length > 0 && typeof (data.list[0] as Json).list_title === 'string') data.list = inflate(data.list, ITEMS, 'id');
  return data;
}

interface Measured {
  status: number;
  /** The header block, rebuilt from what was received. */
  head: string;
  bytes: number;
  headerBytes: number;
  calls: number;
  body: string;
}

/** One cold render: its status, body bytes, header block bytes, and the upstream calls it made. */
async function measure(portal: TestPortal, upstream: ReferenceServer, host: string, path: string): Promise<Measured> {
  upstream.api.control.reset();
  const { hostname, port } = new URL(portal.url);
  const answer = await new Promise<{ status: number; body: Buffer; head: string }>((resolve, reject) => {
    const req = http.get({ hostname, port, path, headers: { host, 'accept-encoding': 'identity' } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => {
        // The header block as sent: status line, each field line, the blank line.
        const fields = Array.from({ length: res.rawHeaders.length / 2 }, (_, index) => `${res.rawHeaders[2 * index]}: ${res.rawHeaders[2 * index + 1]}\r\n`);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts), head: `HTTP/1.1 ${res.statusCode} ${res.statusMessage}\r\n${fields.join('')}\r\n` });
      });
    });
    req.on('error', reject);
  });
  return {
    status: answer.status,
    head: answer.head,
    bytes: answer.body.length,
    headerBytes: Buffer.byteLength(answer.head),
    calls: upstream.api.control.stats().total,
    body: answer.body.toString('utf8'),
  };
}

/** The page once it is served from the cache (it is stored as its first response ends). */
async function eventuallyHit(portal: TestPortal, upstream: ReferenceServer, host: string, path: string): Promise<Measured & { cache: string }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const measured = await measure(portal, upstream, host, path);
    const cache = /\r\nx-cache: (\w+)/i.exec(measured.head)?.[1] ?? '';
    if (cache === 'HIT' || Date.now() > deadline) {
      expect(cache).toBe('HIT');
      expect(measured.head).toMatch(/surrogate-key: /i);
      return { ...measured, cache };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function pageData(portal: TestPortal, host: string, path: string): Promise<Json> {
  const res = await request(portal.url).get('/_data/page').query({ path }).set('Host', host);
  expect(res.status).toBe(200);
  return (res.body as { page: { data: Json } }).page.data;
}

describe('pages over a CMS that sends 2000 children and 3000 items', () => {
  let reference: ReferenceServer;
  let inflating: RewritingUpstream;
  let plain: TestPortal;
  let inflated: TestPortal;
  let listCatid: number;
  beforeAll(async () => {
    reference = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    inflating = await startRewritingUpstream(reference, inflateAnswer);
    plain = await startTestPortal({ upstream: reference });
    inflated = await startTestPortal({ upstream: inflating.asUpstream });
    listCatid = (await homeCategories(reference.url, HOME_CATID))[0]!.catid;
  });
  afterAll(async () => {
    await inflated?.close();
    await plain?.close();
    await inflating?.close();
    await reference?.close();
  });

  it('the upstream does send them (the test measures what it means to)', async () => {
    const children = await fetch(`${inflating.url}/mobile/index/category_index`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ catid: HOME_CATID }),
    }).then((res) => res.json() as Promise<{ data: { children: unknown[] } }>);
    expect(children.data.children).toHaveLength(CHILDREN);
    const list = await fetch(`${inflating.url}/list/${listCatid}/1.html?pagesize=20`).then((res) => res.json() as Promise<{ data: { lists: unknown[] } }>);
    expect(list.data.lists).toHaveLength(ITEMS);
  });

  it.each([MAIN_SITE, REGIONAL_SITES[0]!])(
    'the home page of $domain: at most HOME_MAX_BLOCKS blocks of 8, within its bytes, header block and calls',
    async (site) => {
      const baseline = await measure(plain, reference, site.domain, '/home');
      const home = await measure(inflated, reference, site.domain, '/home');
      console.log(
        `${site.domain} /home: ${home.bytes} bytes, ${home.headerBytes} header bytes, ${home.calls} upstream calls (as the CMS answers: ${baseline.bytes}, ${baseline.headerBytes}, ${baseline.calls})`,
      );
      expect(home.status).toBe(200);
      expect(home.bytes).toBeLessThanOrEqual(HOME_MAX_BYTES);
      expect(home.headerBytes).toBeLessThan(HEADER_BLOCK_MAX_BYTES);
      expect(home.calls).toBeLessThanOrEqual(HOME_MAX_CALLS);
      // The shareable copy carries the most headers (Cache-Control, Surrogate-Key with the page's keys, Age).
      const hit = await eventuallyHit(inflated, reference, site.domain, '/home');
      console.log(`${site.domain} /home, cached: ${hit.headerBytes} header bytes`);
      expect(hit.headerBytes).toBeLessThan(HEADER_BLOCK_MAX_BYTES);
      const data = await pageData(inflated, site.domain, '/home');
      const blocks = data.blocks as Array<{ items: unknown[] }>;
      expect(blocks.length).toBeGreaterThan(0);
      expect(blocks.length).toBeLessThanOrEqual(HOME_MAX_BLOCKS);
      for (const block of blocks) expect(block.items.length).toBeLessThanOrEqual(HOME_CATEGORY_LIST_SIZE);
    },
  );

  it('a list page: 20 items, within its bytes, header block and calls', async () => {
    const path = `/V1/${listCatid}`;
    const baseline = await measure(plain, reference, MAIN_SITE.domain, path);
    const list = await measure(inflated, reference, MAIN_SITE.domain, path);
    console.log(
      `${path}: ${list.bytes} bytes, ${list.headerBytes} header bytes, ${list.calls} upstream calls (as the CMS answers: ${baseline.bytes}, ${baseline.headerBytes}, ${baseline.calls})`,
    );
    expect(list.status).toBe(200);
    expect(list.bytes).toBeLessThanOrEqual(LIST_MAX_BYTES);
    expect(list.headerBytes).toBeLessThan(HEADER_BLOCK_MAX_BYTES);
    expect(list.calls).toBeLessThanOrEqual(LIST_MAX_CALLS);
    expect((await eventuallyHit(inflated, reference, MAIN_SITE.domain, path)).headerBytes).toBeLessThan(HEADER_BLOCK_MAX_BYTES);
    const data = await pageData(inflated, MAIN_SITE.domain, path);
    expect((data.list as { items: unknown[] }).items).toHaveLength(CATEGORY_PAGE_SIZE);
  });
});
