/**
 * Purges: by exact key, by route (one query variant or all of them), by tag, by site, or everything of a build.
 * Selectors are validated before anything is touched (bad input changes nothing), then resolved to the keys
 * they cover, so a dry run can say how many entries a purge would drop. After a purge the deleted keys are
 * announced (see coherence), so every instance drops its in-process copies too.
 */
import { ALL_SITES } from '../../shared/sites';
import type { KeySpace } from './keys';
import { escapeGlob } from './keys';
import { canonicalPathOf } from '../../shared/canonical-path';
import { routeSpelling } from '../../shared/routes';
import type { CacheStore, StaleDepth } from './store';
import { isItemTag, purgeTagProblem } from './tags';
import type { CacheEntry } from './entry';

export type PurgeSelector =
  | { by: 'key'; key: string }
  /** `search` null: the path with every query variant; otherwise that one (normalised) variant. */
  | { by: 'url'; siteId: number; pathname: string; search: string | null }
  | { by: 'tag'; tag: string }
  | { by: 'site'; siteId: number }
  | { by: 'all' };

export interface PurgeResult {
  selector: PurgeSelector;
  dryRun: boolean;
  /** Pages were marked stale (served while one re-render runs) instead of deleted; data entries are deleted either way. */
  soft: boolean;
  /** Keys the selector covers (for a dry run: would delete). */
  keys: string[];
  /** Entries that existed and were deleted (0 for a dry run). */
  deleted: number;
}

export class PurgeInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PurgeInputError';
  }
}

/** A key space whose build may be '*': operators purge every build of a prefix unless they name one. */
export type PurgeSpace = KeySpace;

const MAX_PATH_LENGTH = 2048;

/** Throws a PurgeInputError naming what is wrong with a selector; resolves nothing. */
export function validate(selector: PurgeSelector, space: PurgeSpace): void {
  switch (selector.by) {
    case 'key':
      if (!isExactKey(selector.key, space)) {
        throw new PurgeInputError(`key must be an exact cache key starting with "${space.prefix}:" (no spaces or wildcards)`);
      }
      return;
    case 'url':
      if (!selector.pathname.startsWith('/') || selector.pathname.length > MAX_PATH_LENGTH) {
        throw new PurgeInputError('url must have a path starting with /');
      }
      checkSite(selector.siteId);
      return;
    case 'tag': {
      // The contract's one list (tags.ts), for the hook and the CLI alike.
      const problem = purgeTagProblem(selector.tag);
      if (problem !== null) throw new PurgeInputError(`tag ${problem}`);
      return;
    }
    case 'site':
      checkSite(selector.siteId);
      return;
    case 'all':
      return;
  }
}

/** A whole key of this prefix with nothing a glob would read as a pattern. */
function isExactKey(key: string, space: PurgeSpace): boolean {
  return key.startsWith(`${space.prefix}:`) && !/[\s*?[\]]/.test(key);
}

function checkSite(siteId: number): void {
  if (!Number.isInteger(siteId) || !ALL_SITES.some((site) => site.id === siteId)) {
    throw new PurgeInputError(`site ${siteId} is not a site id (0–${ALL_SITES.length - 1})`);
  }
}

/**
 * Parses `https://host/path?query` or `/path?query` into a url selector; the host picks the site. The path is
 * brought to its one canonical spelling (the only one pages are stored under: the edge 301s every other) and the
 * query to the parameters the page reads, so any spelling an operator types names the entries readers get.
 */
export async function urlSelector(url: string, siteIdOf: (host: string | undefined) => number, everyQuery: boolean): Promise<PurgeSelector> {
  const parsed = parsePageUrl(url);
  if (!parsed) throw new PurgeInputError(`"${url}" is not a page URL (https://host/path or /path)`);
  const spelt = canonicalPathOf(parsed.pathname);
  if (spelt === null) throw new PurgeInputError(`"${url}": the path has no valid spelling (malformed %-escape or control character)`);
  // The page's own spelling of its params too (a search keyword's base64, a tag page without its title).
  const spelling = routeSpelling(spelt);
  const pathname = spelling.kind === 'respelt' ? spelling.path : spelt;
  const host = parsed.host === PLACEHOLDER_HOST ? undefined : parsed.host;
  const search = everyQuery ? null : await pageQueryOf(pathname, parsed.searchParams);
  return { by: 'url', siteId: siteIdOf(host), pathname, search };
}

const PLACEHOLDER_HOST = 'portal.invalid';

/** An absolute http(s) URL or a path; anything else (`not_a_url`, `ht!tp://x`, `ftp://x`) is not a page URL. */
export function parsePageUrl(text: string): URL | null {
  if (!/^[/\\]/.test(text) && !/^https?:\/\//i.test(text)) return null;
  try {
    return new URL(text, `http://${PLACEHOLDER_HOST}`);
  } catch {
    return null;
  }
}

/**
 * The query part of the page's key. Which parameters a page reads is in the route table, which is only loaded
 * when there is a query to filter: the CLI then starts without the route table and its loaders.
 */
async function pageQueryOf(pathname: string, params: URLSearchParams): Promise<string> {
  if ([...params.keys()].length === 0) return '';
  const { addressOf } = await import('../../shared/page-address');
  return addressOf(pathname, params).query;
}

/** Marks sent to the store together: pipelined on one connection, not one round trip after another. */
const MARKS_AT_ONCE = 64;

export class Invalidator {
  constructor(
    private readonly store: CacheStore,
    private readonly space: PurgeSpace,
    /** Told the keys a purge deleted, to evict copies held elsewhere (other instances' L1). */
    private readonly onPurged: (keys: readonly string[]) => Promise<void> = async () => undefined,
  ) {}

  /**
   * Hard (the default): every entry the selector covers is deleted, but for the data answers of an item's tag
   * (`article:33727`): those are expired with the item noted as withdrawn, so a render that must fall back on one
   * while the CMS fails shows the rest of a list without it, and an item's own answer is read as missing
   * (content-service.ts). Soft: its pages are marked stale instead, so readers keep getting them while one
   * re-render runs, and its data entries expired, so that re-render reads what the CMS says now (a page
   * re-rendered from stale data would be stored fresh with the old text) and falls back on them only when the CMS
   * fails (then the page is sent, not stored: nothing new is built on old data).
   */
  async purge(selector: PurgeSelector, options: { dryRun?: boolean; soft?: boolean } = {}): Promise<PurgeResult> {
    validate(selector, this.space);
    const { keys, tags, indexed } = await this.resolve(selector);
    const dryRun = options.dryRun === true;
    const soft = options.soft === true;
    if (dryRun) return { selector, dryRun, soft, keys, deleted: 0 };
    // A page rendered from a load begun from here on read what the CMS says now: it is left fresh.
    const loadsFrom = Date.now();
    const pages = keys.filter(isPageKey);
    const data = keys.filter((key) => !isPageKey(key));
    const item = selector.by === 'tag' && isItemTag(selector.tag) ? selector.tag : null;
    if (soft) {
      const marked = (await this.markStale(pages, loadsFrom, 'stale')) + (await this.markStale(data, loadsFrom, 'expired'));
      if (keys.length > 0) await this.onPurged(keys);
      return { selector, dryRun, soft, keys, deleted: marked };
    }
    // Unindexing keeps indexed what is still held: the answers marked below stay under the item's tag.
    const deleted = await this.store.deleteKeys(item ? pages : keys, { prefix: this.space.prefix, tags, keys: indexed });
    const marked = item ? await this.markStale(data, loadsFrom, 'expired', item) : 0;
    if (keys.length > 0) await this.onPurged(keys);
    return { selector, dryRun, soft, keys, deleted: deleted + marked };
  }

  /**
   * Marks each entry `depth` (a page stale, its grace window starting now; a data answer expired), MARKS_AT_ONCE
   * at a time, each in one step of the store: one a hard purge deleted meanwhile stays gone. Resolves how many
   * were held.
   */
  private async markStale(keys: readonly string[], loadsFrom: number, depth: StaleDepth, withdrawn?: string): Promise<number> {
    const now = Date.now();
    let held = 0;
    for (let from = 0; from < keys.length; from += MARKS_AT_ONCE) {
      const outcomes = await Promise.all(keys.slice(from, from + MARKS_AT_ONCE).map((key) => this.store.markStale(key, now, loadsFrom, depth, withdrawn)));
      held += outcomes.filter((outcome) => outcome !== 'gone').length;
    }
    return held;
  }

  /** The keys held, and for a tag or site selector the tags whose index was read and every key it named. */
  private async resolve(selector: PurgeSelector): Promise<{ keys: string[]; tags: string[]; indexed: string[] }> {
    const { prefix, buildId } = this.space;
    const base = `${escapeGlob(prefix)}:${buildId === '*' ? '*' : escapeGlob(buildId)}`;
    switch (selector.by) {
      case 'key':
        return { keys: await this.existing([selector.key]), tags: [], indexed: [] };
      case 'url': {
        const page = `${base}:page:${selector.siteId}:${escapeGlob(selector.pathname)}`;
        if (selector.search !== null) return { keys: await this.store.keysMatching(page + escapeGlob(selector.search)), tags: [], indexed: [] };
        // The path alone, or followed by a query: `?` is escaped, or it would match any character (`/` covering
        // every page, `/detail/1/2` covering `/detail/1/23`).
        const variants = await Promise.all([this.store.keysMatching(page), this.store.keysMatching(`${page}${escapeGlob('?')}*`)]);
        const pages = unique(variants.flat());
        // The answers the pages were rendered from go too: re-rendered from a held answer, a corrected page would
        // be stored again with the old text (the same for a soft purge: data entries are deleted either way).
        return { keys: unique([...pages, ...(await this.readsOf(pages))]), tags: [], indexed: [] };
      }
      case 'tag': {
        const indexed = await this.store.keysWithTag(prefix, selector.tag);
        return { keys: await this.existing(indexed), tags: [selector.tag], indexed };
      }
      case 'site': {
        // Every page of the site, and whatever data is tagged with it (its site config, its friendly links).
        const tag = `site:${selector.siteId}`;
        const [pages, tagged] = await Promise.all([this.store.keysMatching(`${base}:page:${selector.siteId}:*`), this.store.keysWithTag(prefix, tag)]);
        return { keys: await this.existing(unique([...pages, ...tagged])), tags: [tag], indexed: tagged };
      }
      case 'all': {
        const [pages, data] = await Promise.all([this.store.keysMatching(`${base}:page:*`), this.store.keysMatching(`${base}:data:*`)]);
        return { keys: unique([...pages, ...data]), tags: [], indexed: [] };
      }
    }
  }

  /**
   * The keys of the data answers behind the pages a URL selector names (CacheEntry.reads), as this store holds
   * them: a purge announces them, so an instance holding such an answer but not the page drops it too.
   */
  async answersBehind(selector: PurgeSelector): Promise<string[]> {
    if (selector.by !== 'url') return [];
    return (await this.resolve(selector)).keys.filter((key) => !isPageKey(key) && isExactKey(key, this.space));
  }

  /** The data keys the pages were rendered from, where the store still holds them. */
  private async readsOf(pages: readonly string[]): Promise<string[]> {
    const entries = await this.entries(pages);
    return this.existing(unique(entries.flatMap((entry) => entry?.reads ?? [])));
  }

  /**
   * The entries held at `keys` (null where none). A store's read misses rather than fails when it cannot answer,
   * which is right for a reader but not for a purge: then this throws, as the operator side does.
   */
  private async entries(keys: readonly string[]): Promise<Array<CacheEntry | null>> {
    const entries = await Promise.all(keys.map((key) => this.store.get(key)));
    if (!this.store.isAvailable()) throw new Error('the store did not answer the reads of the purge');
    return entries;
  }

  /**
   * Tag sets may name keys that have since expired; counts and dry runs should not include them. Asked of the
   * store's operator side, which throws when it cannot answer: a read that misses when Redis is slow would make
   * the purge find nothing and report success.
   */
  private existing(keys: readonly string[]): Promise<string[]> {
    return this.store.existing(keys);
  }
}

/** `{prefix}:{build}:page:{site}:{path}`: a rendered page (the other kind is `data`). */
function isPageKey(key: string): boolean {
  return key.split(':', 4)[2] === 'page';
}

function unique(keys: readonly string[]): string[] {
  return [...new Set(keys)];
}
