/**
 * Keyword search over article titles, list titles and descriptions, like the CMS's LIKE-based search: every
 * whitespace-separated term must occur (case-insensitive, NFKC so full-width letters match half-width ones).
 */
import type { RawArticleDetail } from '../../server/upstream/wire';
import type { Dataset } from './dataset';

export const RECENT_DAYS = 30;
/** Longer keywords are cut, as a search box would; keeps a hostile query from costing more than a normal one. */
const MAX_QUERY_LENGTH = 100;

interface Entry {
  id: number;
  adddate: number | null;
  text: string;
}

const indexes = new WeakMap<Dataset, Entry[]>();

function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** Newest first, built once per dataset. */
function indexOf(dataset: Dataset): Entry[] {
  let index = indexes.get(dataset);
  if (!index) {
    index = [...dataset.articles]
      .sort((left, right) => (right.adddate ?? 0) - (left.adddate ?? 0) || right.id - left.id)
      .map((article: RawArticleDetail) => ({
        id: article.id,
        adddate: article.adddate,
        text: normalise(`${article.title}\n${article.list_title}\n${article.description}`),
      }));
    indexes.set(dataset, index);
  }
  return index;
}

/** The terms of a query; empty when it has none (an empty or blank query finds nothing). */
export function searchTerms(query: string): string[] {
  return normalise(query.slice(0, MAX_QUERY_LENGTH))
    .split(/\s+/u)
    .filter((term) => term !== '');
}

export function textMatches(text: string, terms: readonly string[]): boolean {
  const haystack = normalise(text);
  return terms.every((term) => haystack.includes(term));
}

/** Ids of matching articles, newest first; `since` (unix seconds) limits to articles published from then on. */
export function searchArticles(dataset: Dataset, terms: readonly string[], since: number | null): number[] {
  if (terms.length === 0) return [];
  return indexOf(dataset)
    .filter((entry) => (since === null || (entry.adddate ?? 0) >= since) && terms.every((term) => entry.text.includes(term)))
    .map((entry) => entry.id);
}
