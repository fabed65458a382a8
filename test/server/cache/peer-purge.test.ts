/**
 * PeerPurger (server/cache/peer-purge.ts) against real HTTP listeners: a peer that acknowledges, one that redirects
 * (to a listener that records what reaches it), one that refuses, one that answers what is not an acknowledgement.
 * A host of PEER_URLS stands for every address it resolves to; the token goes to the addresses asked and nowhere
 * else, and whatever did not acknowledge is named.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PeerPurger, PEER_MEMORY_MS, PEER_PURGE_PATH } from '../../../server/cache/peer-purge';
import type { PurgeAnnouncement } from '../../../server/cache/coherence';
import { liveInstances } from '../../../server/cache/purge-acks';

const TOKEN = 'an-internal-token-of-the-test-0123';
const ANNOUNCEMENT: PurgeAnnouncement = { id: 'purge-1', selectors: [{ by: 'tag', tag: 'article:7' }], build: '*' };

interface Listener {
  url: string;
  requests: Array<{ url: string; token: string | undefined; body: string }>;
  close(): Promise<void>;
}

async function listener(answer: (res: http.ServerResponse, body: string) => void): Promise<Listener> {
  const requests: Listener['requests'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const token = req.headers['x-portal-internal-token'];
      requests.push({ url: req.url ?? '', token: typeof token === 'string' ? token : undefined, body });
      answer(res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const acknowledging = (id: string) => (res: http.ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, entries: 3 }));

describe('PeerPurger', () => {
  const listeners: Listener[] = [];
  afterAll(async () => {
    for (const open of listeners) await open.close();
  });
  async function open(answer: (res: http.ServerResponse, body: string) => void): Promise<Listener> {
    const made = await listener(answer);
    listeners.push(made);
    return made;
  }

  it('sends the announcement with the token to each peer, and names every peer that did not acknowledge', async () => {
    const good = await open(acknowledging('peer-good'));
    const elsewhere = await open(acknowledging('elsewhere'));
    const redirecting = await open((res) => res.writeHead(307, { location: `${elsewhere.url}${PEER_PURGE_PATH}` }).end());
    const refusing = await open((res) => res.writeHead(403).end('{"error":"no"}'));
    const confused = await open((res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>'));
    const purger = new PeerPurger({ selfId: 'self', peerUrls: [redirecting.url, refusing.url, confused.url], token: TOKEN, timeoutMs: 5000 });
    purger.rememberInstances([
      { id: 'self', url: 'http://127.0.0.1:1' },
      { id: 'peer-good', url: good.url },
    ]);

    const result = await purger.purge(ANNOUNCEMENT);
    expect(result.acknowledged).toEqual([{ id: 'peer-good', entries: 3 }]);
    expect(result.missing.sort()).toEqual([redirecting.url, refusing.url, confused.url].sort());
    expect(good.requests).toEqual([{ url: PEER_PURGE_PATH, token: TOKEN, body: JSON.stringify(ANNOUNCEMENT) }]);
    // The redirect was not followed: the token never reached the other origin.
    expect(elsewhere.requests).toEqual([]);
  });

  it('asks every address a PEER_URLS host resolves to, counts an instance once, and never itself', async () => {
    const first = await open(acknowledging('peer-a'));
    const second = await open(acknowledging('peer-b'));
    const selfListener = await open(acknowledging('self'));
    const ports = new Map([first, second, selfListener].map((made) => [new URL(made.url).port, made]));
    // One name resolved (by the resolver given, as a headless Service's name is) before each listener's port.
    const purger = new PeerPurger({
      selfId: 'self',
      peerUrls: [...ports.keys()].map((port) => `http://portal-internal.test:${port}`),
      token: TOKEN,
      timeoutMs: 5000,
      resolve: async (host) => (host === 'portal-internal.test' ? ['127.0.0.1'] : []),
    });
    purger.rememberInstances([{ id: 'peer-a', url: first.url }]);
    const result = await purger.purge(ANNOUNCEMENT);
    expect(result.acknowledged.map((ack) => ack.id).sort()).toEqual(['peer-a', 'peer-b']);
    expect(result.missing).toEqual([]);
    // The address listed twice (announced and resolved) is asked once.
    expect(first.requests).toHaveLength(1);
  });

  it('names an instance last seen by its id when it does not answer in time', async () => {
    const silent = await open(() => undefined);
    const purger = new PeerPurger({ selfId: 'self', peerUrls: [], token: TOKEN, timeoutMs: 200 });
    purger.rememberInstances([{ id: 'peer-silent', url: silent.url }]);
    expect(await purger.purge(ANNOUNCEMENT)).toEqual({ acknowledged: [], missing: ['peer-silent'] });
  });

  it('keeps a peer that one listing missed, forgets one unlisted for PEER_MEMORY_MS, and lets a successor replace a crashed one', async () => {
    const steady = await open(acknowledging('peer-steady'));
    const busy = await open(acknowledging('peer-busy'));
    const successor = await open(acknowledging('peer-successor'));
    let clock = 1_000_000;
    const purger = new PeerPurger({ selfId: 'self', peerUrls: [], token: TOKEN, timeoutMs: 5000, now: () => clock });
    purger.rememberInstances([
      { id: 'peer-steady', url: steady.url },
      { id: 'peer-busy', url: busy.url },
    ]);
    // The busy peer's announcement expired (or Redis came back empty) just before the outage: still asked.
    clock += 1_000;
    purger.rememberInstances([{ id: 'peer-steady', url: steady.url }]);
    expect((await purger.purge(ANNOUNCEMENT)).acknowledged.map((ack) => ack.id).sort()).toEqual(['peer-busy', 'peer-steady']);

    // A new instance at the steady peer's address: the crashed id there is not named missing.
    clock += 1_000;
    purger.rememberInstances([
      { id: 'peer-steady', url: steady.url },
      { id: 'peer-crashed-then-replaced', url: successor.url },
      { id: 'peer-successor', url: successor.url },
    ]);
    clock += PEER_MEMORY_MS - 500;
    const later = await purger.purge(ANNOUNCEMENT);
    expect(later.acknowledged.map((ack) => ack.id).sort()).toEqual(['peer-steady', 'peer-successor']);
    expect(later.missing).toEqual([]);
    expect(busy.requests).toHaveLength(1);
  });
});

describe('liveInstances', () => {
  it('keeps one instance per address, the newest: a crashed one is replaced by what answers there now', () => {
    const at = (minute: number) => `2026-12-07T10:0${minute}:00.000Z`;
    const listed = [
      { id: 'crashed', url: 'http://10.0.0.2:3000', startedAt: at(1) },
      { id: 'other', url: 'http://10.0.0.3:3000', startedAt: at(2) },
      { id: 'successor', url: 'http://10.0.0.2:3000', startedAt: at(5) },
    ];
    expect(liveInstances(listed).map((instance) => instance.id)).toEqual(['other', 'successor']);
    expect(liveInstances(listed.slice(0, 2)).map((instance) => instance.id)).toEqual(['crashed', 'other']);
  });
});
