/**
 * A purge sent straight to the other instances, for when Redis (the bus they hear purges on) cannot be reached.
 * Without it, the instance that takes the hook drops its own copy and the edge's, and the edge's next miss goes
 * to a peer that still holds the old page in L1 and serves it: the edge stores that until Redis returns. Each
 * peer's internal listener (`POST /_internal/peer-purge`, INTERNAL_TOKEN) applies the purge to its L1 and says
 * so; the purger purges the edges only after that.
 *
 * Peers are known without Redis: the instances seen announced there in the last PEER_MEMORY_MS, and PEER_URLS,
 * whose host names are resolved to every address they have (compose's service names, a Kubernetes headless
 * Service), so a peer started during the outage is found too. One instance reached at several addresses is
 * counted once, by its id.
 */
import { lookup } from 'node:dns/promises';
import { z } from 'zod';
import type { PurgeAnnouncement } from './coherence';
import { fetchWithCredential } from '../platform/credentialed-fetch';
import { INTERNAL_TOKEN_HEADER } from './instances';

export const PEER_PURGE_PATH = '/_internal/peer-purge';

/**
 * How long an instance stays a peer after the last listing that named it. One listing can miss a live instance
 * (its announcement expired while it was busy, or Redis came back empty and it has not announced again yet); the
 * outage may begin just then. A peer that has really gone costs one refused connection and is named missing.
 */
export const PEER_MEMORY_MS = 60_000;

/** A peer's answer: its instance id and the L1 copies it dropped. */
export const peerPurgeAnswer = z.object({ id: z.string().min(1).max(100), entries: z.number().int().nonnegative() });

export type PeerAck = { id: string; entries: number };

export interface PeerPurgeResult {
  acknowledged: PeerAck[];
  /** Peers not reached, by id where it is known (an instance last seen announced), else by address. */
  missing: string[];
}

export interface PeerPurgeOptions {
  selfId: string;
  /** PEER_URLS: origins of the instances' internal listeners; each host stands for every address it resolves to. */
  peerUrls: readonly string[];
  token: string | undefined;
  timeoutMs: number;
  /** How a host name is resolved (every address); the system resolver by default. */
  resolve?: (host: string) => Promise<string[]>;
  /** The clock listings are dated by; Date.now by default. */
  now?: () => number;
}

interface Target {
  url: string;
  /** The instance id, when the address came from its announcement. */
  id?: string;
}

export class PeerPurger {
  /** By announced URL: the instance last listed there (a successor replaces a crashed one) and when. */
  private readonly seen = new Map<string, { id: string; at: number }>();

  constructor(private readonly options: PeerPurgeOptions) {}

  /** The instances Redis listed (oldest start first, their announced internal URLs): kept for when it cannot list them. */
  rememberInstances(instances: ReadonlyArray<{ id: string; url: string }>): void {
    const now = this.now();
    for (const instance of instances) {
      if (instance.id === this.options.selfId) this.seen.delete(instance.url);
      else this.seen.set(instance.url, { id: instance.id, at: now });
    }
    for (const [url, peer] of this.seen) if (now - peer.at > PEER_MEMORY_MS) this.seen.delete(url);
  }

  /** Sends the purge to every peer at once; each answers within the timeout or is named missing. */
  async purge(announcement: PurgeAnnouncement): Promise<PeerPurgeResult> {
    const targets = await this.targets();
    const answers = await Promise.all(targets.map(async (target) => ({ target, ack: await this.send(target.url, announcement) })));
    const acknowledged = new Map<string, PeerAck>();
    for (const { ack } of answers) if (ack && ack.id !== this.options.selfId) acknowledged.set(ack.id, ack);
    // An instance reached at another of its addresses is not missing; an address that never said who it is, is.
    const missing = answers.filter(({ target, ack }) => !ack && !(target.id && acknowledged.has(target.id))).map(({ target }) => target.id ?? target.url);
    return { acknowledged: [...acknowledged.values()], missing: [...new Set(missing)] };
  }

  /** The last instances seen, then PEER_URLS's addresses; an address listed twice is asked once. */
  private async targets(): Promise<Target[]> {
    const fromConfig = (await Promise.all(this.options.peerUrls.map((url) => this.expand(url)))).flat();
    const now = this.now();
    const recent = [...this.seen].filter(([, peer]) => now - peer.at <= PEER_MEMORY_MS).map(([url, peer]) => ({ url, id: peer.id }));
    const byUrl = new Map<string, Target>();
    for (const target of [...recent, ...fromConfig]) if (!byUrl.has(target.url)) byUrl.set(target.url, target);
    return [...byUrl.values()];
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** One origin per address the URL's host resolves to; the URL itself when it is an address or does not resolve. */
  private async expand(origin: string): Promise<Target[]> {
    const url = new URL(origin);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    try {
      const addresses = await (this.options.resolve ?? resolveAll)(host);
      if (addresses.length === 0) return [{ url: url.origin }];
      return addresses.map((address) => {
        const copy = new URL(url.origin);
        copy.hostname = address.includes(':') ? `[${address}]` : address;
        return { url: copy.origin };
      });
    } catch {
      return [{ url: url.origin }];
    }
  }

  /** The peer's acknowledgement, or null: no answer in time, a refusal, a redirect (never followed) or a bad answer. */
  private async send(peer: string, announcement: PurgeAnnouncement): Promise<PeerAck | null> {
    try {
      // The token goes to the address asked and nowhere else: a redirect is an unacknowledged purge.
      const { response } = await fetchWithCredential(new URL(PEER_PURGE_PATH, peer), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.options.token ? { [INTERNAL_TOKEN_HEADER]: this.options.token } : {}) },
        body: JSON.stringify(announcement),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (!response) return null;
      const body: unknown = await response.json().catch(() => null);
      if (response.status !== 200) return null;
      const parsed = peerPurgeAnswer.safeParse(body);
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true })).map((entry) => entry.address);
}
