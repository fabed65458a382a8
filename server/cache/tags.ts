/**
 * Tags: what an entry depends on (`article:33727`, `cat:2728`, `site:3`, `page:detail`, `data:list`, …). Each
 * store keeps an index from tag to keys so a purge by tag touches only the entries that hold the item, the way
 * Varnish's xkey does. Redis keeps one set per tag, `{prefix}:tag:{tag}`, shared by every build of the prefix.
 */

import * as PAGE_LIST from '../../shared/pages';
import { DATA_POLICY } from './policy';

/** Tags are short identifiers; anything else (spaces, glob characters, control bytes) is refused at the edge. */
const TAG_PATTERN = /^[a-z][a-z0-9_-]*(:[a-z0-9_-]+)*$/i;
export const MAX_TAG_LENGTH = 64;

export function isValidTag(tag: string): boolean {
  return tag.length <= MAX_TAG_LENGTH && TAG_PATTERN.test(tag);
}

/**
 * The purge contract's tags (docs/publish-hook.md "Tags"): the one list the publish hook and `portal-cache purge`
 * check a tag against. A family is followed by a value (`article:33727`, `cat:2728`, `page:detail`); a word stands
 * alone (`grey`, `topics`). Both in lower case, and the value as the portal files it (an id in digits, a page kind
 * or data family as spelt in code): a typo (`artcle:33727`) or another case (`ARTICLE:33727`, `page:DETAIL`) would
 * match nothing and look like a purge that found nothing to do, so it is refused.
 */
export const TAG_FAMILIES = [
  'article',
  'video',
  'live',
  'topic',
  'boutique',
  'album',
  'special',
  'columnist',
  'tag',
  'cat',
  'shike',
  'site',
  'page',
  'data',
  'items',
] as const;
export const TAG_WORDS = [
  'grey',
  'menu',
  'ads',
  'headline',
  'topics',
  'specials',
  'columns',
  'search',
  'boutique',
  'shike',
  'lives',
  'newspaper',
  'not-found',
] as const;

const FAMILIES: ReadonlySet<string> = new Set(TAG_FAMILIES);
const WORDS: ReadonlySet<string> = new Set(TAG_WORDS);

/** What follows the families that name an item or a section: the CMS's id, a decimal integer as it writes it. */
const ID_VALUE = /^(?:0|[1-9][0-9]*)$/;

/** The kinds the portal files pages under besides its page ids: the feeds (server/seo/routes.ts). */
export const FEED_PAGE_KINDS = ['rss', 'sitemap'] as const;

/**
 * The values of the families that are not ids, exactly as the portal files them (a page id and a data family are
 * camelCase: `page:categoryList`, `data:greyMode`): any other spelling names nothing and is refused.
 */
function namedValues(family: string): readonly string[] | undefined {
  if (family === 'page') return [...Object.keys(PAGE_LIST), ...FEED_PAGE_KINDS];
  if (family === 'data') return Object.keys(DATA_POLICY);
  if (family === 'items') return [ITEMS_LEFT_OUT_TAG.slice('items:'.length)];
  return undefined;
}

/** Why a purge cannot take `tag` (naming it), or null: a tag as Surrogate-Key writes it, of a family the contract lists. */
export function purgeTagProblem(tag: string): string | null {
  if (!isValidTag(tag)) return `${JSON.stringify(tag)} is not a tag (e.g. article:33727, cat:2728, grey)`;
  const colon = tag.indexOf(':');
  const family = colon < 0 ? tag : tag.slice(0, colon);
  const known = colon < 0 ? WORDS : FAMILIES;
  if (!known.has(family)) return familyProblem(tag, family, colon < 0, known);
  return colon < 0 ? null : valueProblem(tag, family, tag.slice(colon + 1));
}

function familyProblem(tag: string, family: string, word: boolean, known: ReadonlySet<string>): string {
  if (known.has(family.toLowerCase())) {
    const lower = family.toLowerCase() + tag.slice(family.length);
    return `${JSON.stringify(tag)}: tags are lower case, as the portal files them${purgeTagProblem(lower) === null ? ` (${JSON.stringify(lower)})` : ''}`;
  }
  return word
    ? `${JSON.stringify(tag)} is not a tag of the contract: a word alone is one of ${TAG_WORDS.join(', ')} (docs/publish-hook.md)`
    : `${JSON.stringify(tag)} is not a tag of the contract: "${family}" is not a family (${TAG_FAMILIES.join(', ')}; docs/publish-hook.md)`;
}

/** The value after a known family: an id, or one of the family's named values, spelt as the portal files it. */
function valueProblem(tag: string, family: string, value: string): string | null {
  const named = namedValues(family);
  if (named === undefined) {
    if (ID_VALUE.test(value)) return null;
    return `${JSON.stringify(tag)}: after "${family}:" comes an id, digits without a sign or leading zero (e.g. ${family}:2728; docs/publish-hook.md)`;
  }
  if (named.includes(value)) return null;
  const spelt = named.find((name) => name.toLowerCase() === value.toLowerCase());
  if (spelt !== undefined) return `${JSON.stringify(tag)}: the portal files it as ${JSON.stringify(`${family}:${spelt}`)} (tags are case-sensitive)`;
  return `${JSON.stringify(tag)}: "${value}" is not a ${family} the portal files (one of ${named.join(', ')}; docs/publish-hook.md)`;
}

export function tagSetKey(prefix: string, tag: string): string {
  return `${prefix}:tag:${tag}`;
}

/** The first segment of a cache key: its prefix, under which its tag sets live. */
export function prefixOfKey(key: string): string {
  const end = key.indexOf(':');
  return end < 0 ? key : key.slice(0, end);
}

/**
 * The bound of a page's `Surrogate-Key` (bytes). A response's whole header block must fit the buffers of whatever is
 * in front (nginx's proxy_buffer_size is one 4 KiB page by default, Fastly keeps 16 KiB of keys, Node reads 16 KiB
 * of headers), and the CSP and the other headers take about 1.5 KiB. Article, list and topic pages fit whole (a
 * detail page sends about 35 keys, 400 bytes); a home page shows more items than fit (the reference dataset's home:
 * 127 article keys sent in 2 KiB), and carries ITEMS_LEFT_OUT_TAG for the rest.
 */
export const MAX_SURROGATE_KEY_BYTES = 2048;

/** Keys of single items (an article, video, live, topic, boutique item): the ones a long page has many of. */
const ITEM_KEY = /^(article|video|live|topic|boutique):/;

/** Whether `tag` names one item (`article:33727`), which lists show among others. */
export function isItemTag(tag: string): boolean {
  return ITEM_KEY.test(tag);
}

/**
 * The key of a page whose `Surrogate-Key` had no room for all its items' keys (docs/decisions/0096): every purge
 * of an item purges it at the edges too. The portal's own index keeps every tag, and a purge also sends the edges
 * the URLs of the pages that index finds, but a page the portal no longer holds (evicted from Redis, or expired
 * while the edge keeps it in grace) is found by nothing else.
 */
export const ITEMS_LEFT_OUT_TAG = 'items:left-out';

/**
 * `Surrogate-Key` header value: the tags, space-separated, as Fastly and Varnish xkey read them, within
 * MAX_SURROGATE_KEY_BYTES. Past it, item keys are left out, the page's other keys (its lists' `cat:`, `headline`,
 * `topics`…, its site and kind) are all kept, and ITEMS_LEFT_OUT_TAG says that some item is not named.
 */
export function surrogateKeyHeader(tags: Iterable<string>): string {
  const valid = [...new Set(tags)].filter(isValidTag).sort();
  const lists = valid.filter((tag) => !ITEM_KEY.test(tag));
  const items = valid.filter((tag) => ITEM_KEY.test(tag));
  const kept: string[] = [];
  // Room kept for ITEMS_LEFT_OUT_TAG, in case an item does not fit.
  let bytes = ITEMS_LEFT_OUT_TAG.length;
  let leftOut = false;
  for (const tag of [...lists, ...items]) {
    if (bytes + 1 + tag.length > MAX_SURROGATE_KEY_BYTES) {
      leftOut = true;
      continue;
    }
    kept.push(tag);
    bytes += 1 + tag.length;
  }
  if (leftOut) kept.push(ITEMS_LEFT_OUT_TAG);
  return kept.sort().join(' ');
}

/** The keys an edge purges for a purge of `tags`: with ITEMS_LEFT_OUT_TAG when an item is purged. */
export function edgeTagsOf(tags: readonly string[]): string[] {
  return tags.some((tag) => ITEM_KEY.test(tag)) ? [...new Set([...tags, ITEMS_LEFT_OUT_TAG])] : [...tags];
}
