/**
 * Tags: what an entry depends on (`article:33727`, `cat:2728`, `site:3`, `page:detail`, `data:list`, …). Each
 * store keeps an index from tag to keys so a purge by tag touches only the entries that hold the item, the way
 * Varnish's xkey does. Redis keeps one set per tag, `{prefix}:tag:{tag}`, shared by every build of the prefix.
 */

/** Tags are short identifiers; anything else (spaces, glob characters, control bytes) is refused at the edge. */
const TAG_PATTERN = /^[a-z][a-z0-9_-]*(:[a-z0-9_-]+)*$/i;
export const MAX_TAG_LENGTH = 64;

export function isValidTag(tag: string): boolean {
  return tag.length <= MAX_TAG_LENGTH && TAG_PATTERN.test(tag);
}

export function tagSetKey(prefix: string, tag: string): string {
  return `${prefix}:tag:${tag}`;
}

/** The first segment of a cache key: its prefix, under which its tag sets live. */
export function prefixOfKey(key: string): string {
  const end = key.indexOf(':');
  return end < 0 ? key : key.slice(0, end);
}

/** `Surrogate-Key` header value: the tags, space-separated, as Fastly and Varnish xkey read them. */
export function surrogateKeyHeader(tags: Iterable<string>): string {
  return [...new Set(tags)].filter(isValidTag).sort().join(' ');
}
