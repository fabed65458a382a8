/**
 * What a purge sends to the Varnish edges (edge-purge.ts), and when: its tags, the addresses of its URLs and of
 * the pages the portal found, at once and again after each EDGE_FOLLOW_UPS_MS.
 */
import { siteById } from '../../shared/sites';
import type { EdgeAck, EdgePurgeOrder } from './edge-purge';
import type { PurgeSelector } from './invalidation';
import { edgeTagsOf } from './tags';

/** URLs sent to the edges for one purge (the order's and the pages found): a runaway tag cannot flood them. */
const MAX_EDGE_URLS = 5000;

/**
 * An instance purges the edges again this long after it purged them: an edge fetch that began before the portal's
 * own purge carries the page the portal held until then, and the edge indexes that object (xkey) only when its
 * headers arrive, after the purge has passed it by, so it would serve the old text for a whole TTL. Most such
 * fetches end within a second; none outlasts the shipped VCL's first_byte_timeout (15 s), the last follow-up.
 */
export const EDGE_FOLLOW_UPS_MS: readonly number[] = [1_000, 15_000];

/** One purger's edge purges and their follow-ups (only a running instance follows up: the CLI exits once answered). */
export class EdgePurges {
  private readonly followUps = new Set<NodeJS.Timeout>();

  constructor(
    private readonly edges: { purge(order: EdgePurgeOrder): Promise<EdgeAck[]> } | null,
    private readonly followsUp: boolean,
    /** The edges' answers to a follow-up, for the log: nobody waits for them. */
    private readonly onFollowUp?: (acks: readonly EdgeAck[]) => void,
  ) {}

  /**
   * Each edge's answer; an item's purge reaches too the pages whose Surrogate-Key had no room for its key (tags.ts
   * edgeTagsOf). `before`: what each follow-up does first (a held purge sends itself to the peers again).
   */
  async purge(tags: readonly string[], urls: readonly string[], soft: boolean, before?: () => Promise<void>): Promise<EdgeAck[]> {
    const edges = this.edges;
    if (!edges) return [];
    const order: EdgePurgeOrder = { tags: edgeTagsOf(tags), urls: [...new Set(urls)].slice(0, MAX_EDGE_URLS), soft };
    const acks = await edges.purge(order);
    // The CLI exits once it has answered: only a running instance follows up.
    const followUp = before ? () => before().then(() => edges.purge(order)) : () => edges.purge(order);
    if (this.followsUp) for (const delay of EDGE_FOLLOW_UPS_MS) this.followUp(followUp, delay);
    return acks;
  }

  private followUp(purge: () => Promise<EdgeAck[]>, delayMs: number): void {
    const timer = setTimeout(() => {
      this.followUps.delete(timer);
      void purge().then(
        (acks) => this.onFollowUp?.(acks),
        () => undefined,
      );
    }, delayMs).unref();
    this.followUps.add(timer);
  }

  close(): void {
    for (const timer of this.followUps) clearTimeout(timer);
    this.followUps.clear();
  }
}

/** The tags a purge's selectors name. */
export function tagsOf(selectors: readonly PurgeSelector[]): string[] {
  return selectors.flatMap((selector) => (selector.by === 'tag' ? [selector.tag] : []));
}

/**
 * Each URL as the edge files it (`path:` + the reader's Host + the path): the site's own domain and the path's
 * canonical spelling, not the text the caller typed (`https://www.qnnews.cn:8443/a/../about`, `…cn./about`), and
 * the pages the portal found.
 */
export function edgeUrlsOf(selectors: readonly PurgeSelector[], pageUrls: readonly string[]): string[] {
  return [...new Set([...selectors.flatMap(edgeUrlOf), ...pageUrls])];
}

/** A URL selector as the address readers reach its page by (every query variant: the edge keys a path). */
function edgeUrlOf(selector: PurgeSelector): string[] {
  if (selector.by !== 'url') return [];
  const site = siteById(selector.siteId);
  return site ? [`https://${site.domain}${selector.pathname}`] : [];
}

/** `{prefix}:{build}:page:{site}:{path}` → the page's address without its query (the edge keys a path). */
export function pageUrlOf(key: string): string[] {
  const parts = key.split(':');
  if (parts[2] !== 'page') return [];
  const site = siteById(Number(parts[3]));
  if (!site) return [];
  const target = parts.slice(4).join(':');
  const query = target.indexOf('?');
  return [`https://${site.domain}${query < 0 ? target : target.slice(0, query)}`];
}
