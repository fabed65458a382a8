/**
 * No credential follows a redirect: a fake edge that answers PURGE with a 3xx and a fake portal that answers the
 * cache CLI with one, each pointing at another origin, a real HTTP server that records whatever reaches it. The
 * edge's purge token and keys, and the CLI's INTERNAL_TOKEN, stay with the origin they were configured for; an
 * edge that redirects is not acknowledged (the hook's answer is not `complete`), a portal that does is named as
 * failed. The content API's redirects (every upstream call, account and sign-in, the /api proxy):
 * test/server/upstream/redirects.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { EdgePurger } from '../../server/cache/edge-purge';
import { INTERNAL_TOKEN_HEADER } from '../../server/cache/instances';
import { buildCacheCli, type CacheCli } from '../support/cache-cli';
import { startTestPortal, type TestPortal } from '../support/portal';
import { callHook } from '../support/publish-hook';
import { describeWithRedis, testRedisUrl } from '../support/requirements';

const STATUSES = [301, 302, 303, 307, 308] as const;
const ROOT = path.resolve(__dirname, '../..');

/**
 * The modules allowed to send a request out, and why none of them follows a redirect: the portal's and the CLI's
 * every other outbound call goes through one of them.
 */
const OUTBOUND = {
  'server/upstream/http-client.ts': 'node-fetch, redirect: manual (the content API: accounts, sign-in, the /api proxy, the flag watch)',
  'server/platform/credentialed-fetch.ts': 'fetch, redirect: manual (edge purges, peer purges, the CLI to portals)',
  'server/upstream/media-proxy.ts': 'node:http, which follows nothing (embedded media, no credential)',
  'scripts/cache-cli/warm-command.ts': 'node:http, which follows nothing (warming pages, no credential)',
};

/** A module's code without its comments (which may name fetch() without calling it). */
function codeOf(file: string): string {
  return readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1');
}

function sourcesUnder(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}
const EDGE_TOKEN = 'edge-purge-token-never-to-travel';
const INTERNAL_TOKEN = 'internal-token-never-to-travel-0123';
const SECRET = 'publish-hook-secret-of-the-redirect-suite';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
}

interface Recording {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** A server answering every request with `answer`, recording what it received. */
async function recordingServer(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Recording> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a redirecting server answers: `status` to `location`, with a body saying it went through. */
function redirecting(status: number, location: () => string) {
  return (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(status, { location: location(), 'content-type': 'text/plain' }).end('moved\n');
  };
}

describe('outbound calls', () => {
  it('leave the portal and the CLI only through the modules that follow no redirect', () => {
    const sending = [...sourcesUnder('server'), ...sourcesUnder('scripts/cache-cli')].filter((file) =>
      /(?<![\w.])fetch\(|\bhttps?\.(?:get|request)\b|from 'node-fetch'|from 'undici'/.test(codeOf(file)),
    );
    expect(sending.sort()).toEqual(Object.keys(OUTBOUND).sort());
  });
});

describe('a credential never follows a redirect', () => {
  let other: Recording;
  beforeAll(async () => {
    // The other origin answers as a real edge would (200 with a count), so following it would look acknowledged.
    other = await recordingServer((_req, res) => res.writeHead(200, { 'x-purged': '3', 'content-type': 'text/plain' }).end('portal_build_info 1\n'));
  });
  afterAll(() => other?.close());
  beforeEach(() => other.received.splice(0));

  const locations: Array<[string, (edge: string) => string]> = [
    ['another origin, absolute', () => `${other.url}/`],
    ['another origin, protocol-relative', () => `//${new URL(other.url).host}/purge`],
    ['the same origin, another path', (edge) => `${edge}/elsewhere`],
  ];

  describe('edge purges', () => {
    it.each(STATUSES.flatMap((status) => locations.map(([where, location]) => [status, where, location] as const)))(
      '%d to %s: not acknowledged, and nothing reaches the other origin',
      async (status, _where, location) => {
        let edgeUrl = '';
        const edge = await recordingServer(redirecting(status, () => location(edgeUrl)));
        edgeUrl = edge.url;
        try {
          const purger = new EdgePurger({ edges: [edge.url], token: EDGE_TOKEN, timeoutMs: 5000 });
          const [ack] = await purger.purge({ tags: ['article:33727'], soft: true });
          expect(ack).toMatchObject({
            edge: edge.url,
            ok: false,
            reason: expect.stringMatching(new RegExp(`answered ${status}, a redirect to .*not followed`)),
          });
          // Sent once, to the edge; never again, not even on the edge's own origin.
          expect(edge.received.map((req) => [req.method, req.headers['x-purge-token']])).toEqual([['PURGE', EDGE_TOKEN]]);
          expect(other.received).toEqual([]);
        } finally {
          await edge.close();
        }
      },
    );
  });

  describeWithRedis()('through the publish hook', () => {
    let edge: Recording;
    let portal: TestPortal;
    beforeAll(async () => {
      edge = await recordingServer(redirecting(307, () => `${other.url}/`));
      portal = await startTestPortal({ env: { PURGE_SECRET: SECRET, EDGE_PURGE_URLS: edge.url, EDGE_PURGE_TOKEN: EDGE_TOKEN } });
    });
    afterAll(async () => {
      await portal?.close();
      await edge?.close();
    });

    it('an edge that redirects the PURGE is named as not acknowledged: the call is not complete', async () => {
      const answer = await callHook(portal.url, SECRET, { tags: ['grey'], soft: false });
      expect(answer.status).toBe(202);
      expect(answer.body.complete).toBe(false);
      expect(answer.body.edges).toEqual([
        { edge: edge.url, ok: false, reason: expect.stringMatching(/answered 307, a redirect to 127\.0\.0\.1:\d+, not followed/), ms: expect.any(Number) },
      ]);
      expect(edge.received.length).toBeGreaterThan(0);
      expect(other.received).toEqual([]);
    });
  });

  describeWithRedis()('the cache CLI', () => {
    let cli: CacheCli;
    beforeAll(async () => {
      cli = await buildCacheCli({ REDIS_URL: testRedisUrl(), CACHE_PREFIX: `redirects${process.pid}`, INTERNAL_TOKEN });
    });
    afterAll(() => cli?.remove());

    it.each([
      ['stats', 307],
      ['stats', 301],
      ['instances', 308],
      ['instances', 302],
    ] as const)('%s --portal <one answering %d>: the portal is named as failed, its token goes nowhere else', async (command, status) => {
      const portal = await recordingServer(redirecting(status, () => `${other.url}/metrics`));
      try {
        const result = await cli.run('--json', '--timeout', '4', command, '--portal', portal.url);
        expect(result.code).toBe(5);
        expect(result.stdout).toMatch(new RegExp(`answered ${status}, a redirect to 127\\.0\\.0\\.1:\\d+, not followed`));
        expect(portal.received.length).toBeGreaterThan(0);
        for (const req of portal.received) expect(req.headers[INTERNAL_TOKEN_HEADER]).toBe(INTERNAL_TOKEN);
        expect(other.received).toEqual([]);
      } finally {
        await portal.close();
      }
    });
  });
});
