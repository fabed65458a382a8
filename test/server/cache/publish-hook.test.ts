/**
 * The publish hook (docs/publish-hook.md) against two real portals on one Redis and the reference content API: a
 * signed call purges every page showing an article, on every instance, whether or not Redis still holds the page;
 * a call that is not exactly right changes nothing.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import Redis from 'ioredis';
import request from 'supertest';
import { MAX_PURGE_BODY_BYTES } from '../../../server/cache/purge-request';
import { purgeTagProblem, TAG_FAMILIES, TAG_WORDS } from '../../../server/cache/tags';
import { historyKey, purgeRecord } from '../../../server/cache/purge-record';
import { HOOK_BODY_DEADLINE_MS } from '../../../server/internal-routes';
import { ALL_SITES, MAIN_SITE } from '../../../shared/sites';
import { describeWithRedis, testRedisUrl } from '../../support/requirements';
import { pageKeyOf, startTestPortal, type TestPortal } from '../../support/portal';
import { callHook, signatureOf } from '../../support/publish-hook';
import { pagesOfEveryKind } from '../../support/page-kinds';
import { homeListEntry } from '../../support/upstream-data';
import { deleteKeys, eventually, keysOf } from './redis-helpers';

const SECRET = 'a-publish-hook-secret-of-the-newsroom-cms-0123456789';

function signed(body: string, secret = SECRET, at = Math.floor(Date.now() / 1000)): string {
  return signatureOf(secret, body, at);
}

function hook(t: TestPortal, body: string, signature = signed(body)) {
  return callHook(t.url, SECRET, body, signature);
}

/** A page as a reader on `host` gets it from one instance. */
function page(t: TestPortal, host: string, path: string) {
  return request(t.url).get(path).set('host', host);
}

/** Until Redis holds the page (a store lands just after the response it was rendered for). */
async function heldInRedis(t: TestPortal, siteId: number, path: string): Promise<void> {
  const client = new Redis(testRedisUrl());
  try {
    await eventually(
      () => client.exists(pageKeyOf(t, siteId, path)),
      (found) => found === 1,
      10_000,
    );
  } finally {
    client.disconnect();
  }
}

describe('the contract’s tags (docs/publish-hook.md)', () => {
  it('lists in the docs the families and words the hook and the CLI take, from one list', () => {
    const docs = readFileSync(path.join(__dirname, '../../../docs/publish-hook.md'), 'utf8');
    const section = docs.slice(docs.indexOf('- `tags` (optional)'), docs.indexOf('- `urls` (optional)'));
    const families = [...section.matchAll(/`([a-z]+):\{[a-z]+\}`/g)].map((match) => match[1]!);
    const words = [...section.slice(section.indexOf('words alone')).matchAll(/`([a-z-]+)`/g)].map((match) => match[1]!);
    expect([...new Set(families)].sort()).toEqual([...TAG_FAMILIES].sort());
    expect(words.sort()).toEqual([...TAG_WORDS].sort());
  });

  it.each([
    ['article:33727', null],
    ['data:greyMode', null],
    ['items:left-out', null],
    ['not-found', null],
    ['artcle:33727', /"artcle" is not a family/],
    ['ARTICLE:33727', /lower case.*\("article:33727"\)/],
    ['Article:33727', /lower case/],
    ['GREY', /lower case.*\("grey"\)/],
    ['article', /a word alone is one of/],
    ['grey:1', /"grey" is not a family/],
    ['x y', /is not a tag/],
    // The value too: a page kind, a data family or an id spelt otherwise names nothing the portal filed.
    ['page:detail', null],
    ['page:categoryList', null],
    ['page:rss', null],
    ['data:list', null],
    ['cat:0', null],
    ['page:DETAIL', /files it as "page:detail"/],
    ['page:categorylist', /files it as "page:categoryList"/],
    ['data:List', /files it as "data:list"/],
    ['data:greymode', /files it as "data:greyMode"/],
    ['items:LEFT-OUT', /files it as "items:left-out"/],
    ['items:left_out', /"left_out" is not a items the portal files \(one of left-out/],
    ['page:about', /"about" is not a page the portal files/],
    ['data:lists', /"lists" is not a data the portal files/],
    ['article:abc', /after "article:" comes an id/],
    ['article:033727', /after "article:" comes an id/],
    ['cat:2728:1', /after "cat:" comes an id/],
    ['site:-1', /is not a tag|comes an id/],
  ])('%s', (tag, problem) => {
    if (problem === null) expect(purgeTagProblem(tag)).toBeNull();
    else expect(purgeTagProblem(tag)).toMatch(problem);
  });
});

describeWithRedis()('publish hook: POST /_internal/purge', () => {
  let a: TestPortal;
  let b: TestPortal;
  const env = { PURGE_SECRET: SECRET };
  beforeAll(async () => {
    a = await startTestPortal({ redisUrl: testRedisUrl(), env, announceEveryMs: 500 });
    b = await startTestPortal({ redisUrl: testRedisUrl(), upstream: a.upstream, cachePrefix: a.cachePrefix, env, announceEveryMs: 500 });
  });
  afterEach(() => a.upstream.api.control.reset());
  afterAll(async () => {
    await b.close();
    await a.close();
    await deleteKeys(testRedisUrl(), a.cachePrefix);
  });

  it('one signed call puts a corrected headline on every page of two sites that showed it, on both instances, with no old copy left', async () => {
    const entry = await homeListEntry(a.upstream.url);
    const old = entry.list_title || entry.title;
    const regional = ALL_SITES[1]!;
    const candidates: Array<[string, number, string]> = [
      [MAIN_SITE.domain, MAIN_SITE.id, '/'],
      [MAIN_SITE.domain, MAIN_SITE.id, `/detail/${entry.catid}/${entry.id}`],
      [MAIN_SITE.domain, MAIN_SITE.id, `/V1/${entry.catid}`],
      [regional.domain, regional.id, `/detail/${entry.catid}/${entry.id}`],
      [regional.domain, regional.id, `/V1/${entry.catid}`],
    ];
    // Every page that shows the headline now, held in each instance's L1 (a HIT from both).
    const showing: typeof candidates = [];
    for (const candidate of candidates) {
      const [host, siteId, path] = candidate;
      const first = await page(a, host, path);
      if (first.status !== 200 || !first.text.includes(old)) continue;
      showing.push(candidate);
      await heldInRedis(a, siteId, path);
      for (const t of [a, b])
        expect(
          (
            await eventually(
              () => page(t, host, path),
              (res) => res.headers['x-cache'] === 'HIT',
            )
          ).headers['x-cache'],
        ).toBe('HIT');
    }
    expect(showing.map(([, , path]) => path)).toEqual(expect.arrayContaining(['/', `/detail/${entry.catid}/${entry.id}`]));
    expect(new Set(showing.map(([host]) => host)).size).toBe(2);

    const corrected = `更正：${old}`;
    expect(a.upstream.api.control.overrideArticle(entry.id, { title: corrected, list_title: corrected })).toBe(true);
    const answer = await hook(a, JSON.stringify({ tags: [`article:${entry.id}`], soft: false }));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ complete: true, soft: false });
    expect(answer.body.entries).toBeGreaterThanOrEqual(showing.length);
    expect(answer.body.instances.missing).toEqual([]);
    expect(answer.body.instances.acknowledged.map((ack: { id: string }) => ack.id).sort()).toEqual([a.portal.instance.id, b.portal.instance.id].sort());
    // Each instance counts the L1 copies it dropped, the one that took the call as well as the other.
    for (const ack of answer.body.instances.acknowledged as Array<{ id: string; entries: number }>)
      expect([ack.id, ack.entries >= showing.length]).toEqual([ack.id, true]);

    let oldCopies = 0;
    for (const [host, , path] of showing) {
      for (const t of [a, b]) {
        const res = await page(t, host, path);
        expect(res.status).toBe(200);
        if (res.text.includes(old) && !res.text.includes(corrected)) oldCopies += 1;
        expect(res.text).toContain(corrected);
      }
    }
    expect(oldCopies).toBe(0);
  });

  it('drops every instance’s L1 copy of a page Redis no longer holds (evicted), by its URL', async () => {
    const path = '/about';
    await page(a, MAIN_SITE.domain, path);
    await heldInRedis(a, MAIN_SITE.id, path);
    for (const t of [a, b])
      await eventually(
        () => page(t, MAIN_SITE.domain, path),
        (res) => res.headers['x-cache'] === 'HIT',
      );
    const client = new Redis(testRedisUrl());
    try {
      await client.del(pageKeyOf(a, MAIN_SITE.id, path));
    } finally {
      client.disconnect();
    }
    // Without a purge both keep answering from L1: what eviction in normal running leaves behind.
    for (const t of [a, b]) expect((await page(t, MAIN_SITE.domain, path)).headers['x-cache']).toBe('HIT');
    const answer = await hook(b, JSON.stringify({ urls: [`https://${MAIN_SITE.domain}${path}`] }));
    expect(answer.status).toBe(200);
    // Each instance dropped its copy (and, the one that rendered it, the answers behind it: url-purge.test.ts).
    const dropped = answer.body.instances.acknowledged.map((ack: { entries: number }) => ack.entries >= 1);
    expect(dropped).toEqual([true, true]);
    for (const t of [a, b]) {
      const l1 = await request(t.url)
        .get('/_internal/l1')
        .query({ key: pageKeyOf(a, MAIN_SITE.id, path) });
      expect(l1.body.entries).toEqual([{ key: pageKeyOf(a, MAIN_SITE.id, path), present: false }]);
    }
    expect((await page(a, MAIN_SITE.domain, path)).headers['x-cache']).toBe('MISS');
  });

  it('soft purge: readers keep the page (STALE) while one re-render runs, then get the new one', async () => {
    const entry = await homeListEntry(a.upstream.url, 1);
    const path = `/detail/${entry.catid}/${entry.id}`;
    await page(a, MAIN_SITE.domain, path);
    await heldInRedis(a, MAIN_SITE.id, path);
    const corrected = `修订：${entry.title}`;
    a.upstream.api.control.overrideArticle(entry.id, { title: corrected });
    const answer = await hook(a, JSON.stringify({ tags: [`article:${entry.id}`], soft: true }));
    expect(answer.status).toBe(200);
    expect(answer.body.soft).toBe(true);
    const first = await page(b, MAIN_SITE.domain, path);
    expect(first.headers['x-cache']).toBe('STALE');
    const later = await eventually(
      () => page(b, MAIN_SITE.domain, path),
      (res) => res.text.includes(corrected),
      10_000,
    );
    expect(later.text).toContain(corrected);
    expect(later.headers['x-cache']).toMatch(/HIT|MISS/);
  });

  it('a render that read the old article before the purge does not store it after: the next reader gets the correction', async () => {
    const entry = await homeListEntry(a.upstream.url, 2);
    const path = `/detail/${entry.catid}/${entry.id}`;
    // The article is read at once, the page's ads slowly: the render reads the article before the correction and
    // finishes (and would store the page) after the purge.
    a.upstream.api.control.setLatency([{ path: '/api/ad/', ms: 1500 }]);
    const calls = () => Object.entries(a.upstream.api.control.stats().byPath).filter(([key]) => key.includes(`/show/${entry.catid}-${entry.id}`)).length;
    const inFlight = page(b, MAIN_SITE.domain, path).then((res) => res);
    await eventually(
      async () => calls(),
      (count) => count > 0,
      10_000,
    );
    const corrected = `撤换：${entry.title}`;
    a.upstream.api.control.overrideArticle(entry.id, { title: corrected });
    expect((await hook(a, JSON.stringify({ tags: [`article:${entry.id}`], soft: false }))).status).toBe(200);
    const old = await inFlight;
    a.upstream.api.control.setLatency([]);
    // That reader asked before the correction, and gets what was read for them…
    expect(old.text).not.toContain(corrected);
    // …but nobody after them: neither instance stored it, nor the answer it was built from.
    for (const t of [a, b]) expect((await page(t, MAIN_SITE.domain, path)).text).toContain(corrected);
  });

  it('records every purge in the history: who, what, entries, instances', async () => {
    const body = JSON.stringify({ tags: ['grey'], soft: false });
    expect((await hook(a, body)).status).toBe(200);
    const client = new Redis(testRedisUrl());
    try {
      const [newest] = await client.lrange(historyKey(a.cachePrefix), 0, 0);
      const record = purgeRecord.parse(JSON.parse(newest!));
      expect(record).toMatchObject({ source: 'hook', tags: ['grey'], urls: [], soft: false });
      expect(record.who).toMatch(/^cms \(/);
      expect(record.instances.acknowledged).toHaveLength(2);
    } finally {
      client.disconnect();
    }
  });

  describe('a call that is not exactly right changes nothing', () => {
    const path = '/about';
    async function held(): Promise<void> {
      await page(a, MAIN_SITE.domain, path);
      await heldInRedis(a, MAIN_SITE.id, path);
      await eventually(
        () => page(a, MAIN_SITE.domain, path),
        (res) => res.headers['x-cache'] === 'HIT',
      );
    }
    const body = JSON.stringify({ urls: [`https://${MAIN_SITE.domain}${path}`], soft: false });
    const now = Math.floor(Date.now() / 1000);
    type Case = [string, () => Promise<request.Response>, number, RegExp];
    const cases: Case[] = [
      ['no signature', () => request(a.url).post('/_internal/purge').set('content-type', 'application/json').send(body), 401, /missing/],
      ['a signature of another secret', () => hook(a, body, signed(body, 'another-secret-another-secret-another')), 401, /does not match/],
      ['a signature of another body', () => hook(a, body, signed('{"tags":["grey"]}')), 401, /does not match/],
      ['a malformed signature header', () => hook(a, body, 't=abc,v1=zz'), 401, /expected t=/],
      ['two timestamps', () => hook(a, body, `t=${now - 600},${signed(body)}`), 401, /expected t=/],
      ['more v1 than a secret rotation needs', () => hook(a, body, `${signed(body)}${`,v1=${'0'.repeat(64)}`.repeat(4)}`), 401, /expected t=/],
      ['a signature in milliseconds', () => hook(a, body, signed(body, SECRET, Date.now())), 401, /expected t=|from the portal's clock/],
      ['a timestamp 10 minutes old', () => hook(a, body, signed(body, SECRET, now - 600)), 401, /from the portal's clock/],
      ['a timestamp 10 minutes ahead', () => hook(a, body, signed(body, SECRET, now + 600)), 401, /from the portal's clock/],
      ['not JSON', () => hook(a, '{tags:'), 400, /not JSON/],
      ['nothing named', () => hook(a, '{}'), 400, /at least one tag or url/],
      ['an unknown field', () => hook(a, JSON.stringify({ tags: ['grey'], purgeAll: true })), 400, /purgeAll/],
      ['a tag that is not one', () => hook(a, JSON.stringify({ tags: ['article:1', 'x y*'] })), 400, /tags\.1/],
      // A typo or another case would match nothing: refused whole, so the good tag beside it purges nothing either.
      [
        'a tag of a family the contract does not list, beside a good one',
        () => hook(a, JSON.stringify({ tags: ['page:detail', 'artcle:33727'], soft: false })),
        400,
        /tags\.1: "artcle:33727" is not a tag of the contract: "artcle" is not a family/,
      ],
      [
        'a known family in capitals, beside a good one',
        () => hook(a, JSON.stringify({ tags: ['page:detail', 'ARTICLE:33727'], soft: false })),
        400,
        /tags\.1: "ARTICLE:33727": tags are lower case.*"article:33727"/,
      ],
      ...['page:DETAIL', 'data:List', 'items:LEFT-OUT', 'article:A1', 'page:nowhere'].map((bad): Case => [
        `a family's value spelt otherwise (${bad}), beside a good one`,
        () => hook(a, JSON.stringify({ tags: ['page:detail', bad], soft: false })),
        400,
        new RegExp(`tags\\.1: ${JSON.stringify(bad)}`),
      ]),
      ['a flag in capitals', () => hook(a, JSON.stringify({ tags: ['Grey', 'page:detail'], soft: false })), 400, /tags\.0: "Grey": tags are lower case/],
      [
        'a word that is no flag',
        () => hook(a, JSON.stringify({ tags: ['page:detail', 'gray'], soft: false })),
        400,
        /tags\.1: "gray" is not a tag of the contract/,
      ],
      ['soft that is not a boolean', () => hook(a, JSON.stringify({ tags: ['grey'], soft: 'yes' })), 400, /soft/],
      ['a URL of another host', () => hook(a, JSON.stringify({ urls: ['https://evil.example.com/about'] })), 400, /not one of the portal's sites/],
      ['a URL without its host', () => hook(a, JSON.stringify({ urls: ['/about'] })), 400, /whole address/],
      ['a URL that is not one', () => hook(a, JSON.stringify({ urls: ['javascript:alert(1)'] })), 400, /not a page URL/],
      ['a body over 256 KiB', () => hook(a, JSON.stringify({ tags: ['grey'], pad: 'x'.repeat(300 * 1024) })), 413, /larger than/],
      // JSON.parse keeps the last of two equal keys, another reader the first: a signed body must say one thing.
      [
        'a key twice (a takedown read as an update)',
        () => hook(a, `{"urls":["https://${MAIN_SITE.domain}${path}"],"soft":true,"soft":false}`),
        400,
        /"soft" appears twice/,
      ],
      [
        'a key twice, once spelt with an escape',
        () => hook(a, `{"tags":["grey"],"urls":["https://${MAIN_SITE.domain}${path}"],"ta\\u0067s":["grey"]}`),
        400,
        /"tags" appears twice/,
      ],
      ['the event id twice', () => hook(a, `{"tags":["grey"],"event":"x","event":"y"}`), 400, /"event" appears twice/],
    ];
    it.each(cases)('%s', async (_name, send, status, message) => {
      await held();
      const answer = await send();
      expect(answer.status).toBe(status);
      expect(answer.body.error).toMatch(message);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect((await page(a, MAIN_SITE.domain, path)).headers['x-cache']).toBe('HIT');
    });

    /** A hook call over a raw socket: the head and `first` of the body now, `rest` then (or never); its answer. */
    function trickled(announced: number, first: string, rest: string | null): Promise<{ head: string; ms: number }> {
      const body = first + (rest ?? '');
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const socket = net.connect(Number(new URL(a.url).port), '127.0.0.1');
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
        socket.on('close', () => resolve({ head: answer.split('\r\n\r\n')[0] ?? '', ms: Date.now() - started }));
        socket.on('error', reject);
        socket.write(
          `POST /_internal/purge HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
            `X-Portal-Signature: ${signed(body)}\r\nContent-Length: ${announced}\r\n\r\n${first}`,
        );
        // The rest a byte at a time, slower than the deadline allows (a slowloris), until the portal closes.
        const drip = setInterval(() => {
          if (rest === null || socket.destroyed || rest.length === 0) return;
          socket.write(rest.slice(0, 1));
          rest = rest.slice(1);
        }, 1000);
        socket.on('close', () => clearInterval(drip));
      });
    }

    it('a body that trickles in (slowloris) is refused with 408 at the deadline, the connection closed, nothing purged', async () => {
      await held();
      const order = JSON.stringify({ urls: [`https://${MAIN_SITE.domain}${path}`], soft: false, event: 'slowloris' });
      const answer = await trickled(Buffer.byteLength(order), order.slice(0, 5), order.slice(5));
      expect(answer.head).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer.ms).toBeGreaterThanOrEqual(HOOK_BODY_DEADLINE_MS - 1000);
      expect(answer.ms).toBeLessThan(HOOK_BODY_DEADLINE_MS + 10_000);
      expect((await page(a, MAIN_SITE.domain, path)).headers['x-cache']).toBe('HIT');
    });

    it('a body announced over the limit is refused with 413 at once, without waiting for it', async () => {
      await held();
      const answer = await trickled(MAX_PURGE_BODY_BYTES + 1, '{"tags":', null);
      expect(answer.head).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer.ms).toBeLessThan(HOOK_BODY_DEADLINE_MS);
      expect((await page(a, MAIN_SITE.domain, path)).headers['x-cache']).toBe('HIT');
    });

    it('a signature used once is refused the second time (a replay), and nothing is purged by it', async () => {
      const once = JSON.stringify({ tags: ['site:0'], soft: false });
      const signature = signed(once);
      expect((await hook(a, once, signature)).status).toBe(200);
      await held();
      for (const t of [a, b]) {
        const again = await hook(t, once, signature);
        expect(again.status).toBe(409);
        expect(again.body.error).toMatch(/used already/);
      }
      expect((await page(a, MAIN_SITE.domain, path)).headers['x-cache']).toBe('HIT');
    });

    it('a replay is recognised however its signature is spelt: capitals, another order, a decoy v1 beside it', async () => {
      const once = JSON.stringify({ tags: ['site:0'], soft: false, event: 'replay-spellings' });
      const at = Math.floor(Date.now() / 1000);
      const hex = signed(once, SECRET, at).split('v1=')[1]!;
      const decoy = 'f'.repeat(64);
      expect((await hook(a, once, `t=${at},v1=${hex}`)).status).toBe(200);
      await held();
      for (const spelling of [`t=${at},v1=${hex.toUpperCase()}`, `v1=${hex}, t=${at}`, `t=${at},v1=${decoy},v1=${hex}`]) {
        const again = await hook(b, once, spelling);
        expect(again.status).toBe(409);
      }
      expect((await page(a, MAIN_SITE.domain, path)).headers['x-cache']).toBe('HIT');
    });
  });

  it('takes any one matching v1 (a secret being rotated: signed with the old and the new), in either hex case', async () => {
    const at = Math.floor(Date.now() / 1000);
    const bodies = ['first', 'second', 'third'].map((event) => JSON.stringify({ tags: ['site:0'], event: `rotation-${event}` }));
    const v1 = (body: string) => signed(body, SECRET, at).split('v1=')[1]!;
    const old = (body: string) => signed(body, 'the-previous-secret-of-the-newsroom-cms-0123', at).split('v1=')[1]!;
    const spellings = [
      (body: string) => `t=${at},v1=${old(body)},v1=${v1(body)}`,
      (body: string) => `t=${at},v1=${v1(body)},v1=${old(body)}`,
      (body: string) => `t=${at},v1=${v1(body).toUpperCase()}`,
    ];
    for (const [index, spelling] of spellings.entries()) {
      const body = bodies[index]!;
      const answer = await hook(a, body, spelling(body));
      expect(answer.status).toBe(200);
    }
  });

  it('takes every tag the portal files entries under: one page of every kind leaves no tag outside the contract', async () => {
    for (const pagePath of await pagesOfEveryKind(a.url)) await request(a.url).get(pagePath);
    const tags = (await keysOf(testRedisUrl(), `${a.cachePrefix}:tag`)).map((key) => key.slice(`${a.cachePrefix}:tag:`.length));
    expect(tags.length).toBeGreaterThan(50);
    expect(tags.filter((tag) => purgeTagProblem(tag) !== null)).toEqual([]);
  });

  it('is off without PURGE_SECRET: 404, saying how to turn it on', async () => {
    const off = await startTestPortal({ upstream: a.upstream });
    try {
      const body = '{"tags":["grey"]}';
      const answer = await hook(off, body);
      expect(answer.status).toBe(404);
      expect(answer.body.error).toMatch(/PURGE_SECRET/);
    } finally {
      await off.close();
    }
  });

  it('says so when it is off on a shared Redis: one warning at start, /readyz reports it, still ready', async () => {
    const warnings = (t: TestPortal) => t.logs.filter((line) => line.level === 40 && /publish hook off/.test(String(line.msg)));
    const off = await startTestPortal({ redisUrl: testRedisUrl(), upstream: a.upstream, cachePrefix: a.cachePrefix });
    try {
      expect(warnings(off)).toHaveLength(1);
      expect(warnings(off)[0]!.msg).toMatch(/PURGE_SECRET.*corrections wait for the cache TTLs/);
      const ready = await request(off.url).get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ status: 'ready', publishHook: 'off' });
      // A second probe logs nothing more: the warning is the start's.
      await request(off.url).get('/readyz');
      expect(warnings(off)).toHaveLength(1);
    } finally {
      await off.close();
    }
    expect(warnings(a)).toEqual([]);
    expect((await request(a.url).get('/readyz')).body).toMatchObject({ status: 'ready', publishHook: 'on' });
  });
});
