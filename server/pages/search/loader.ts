/** /search/{word?}/{type?}: results of search_all for the decoded keyword, type 1 recent or 2 all, with paging. */
import { lastPage, pageFromQuery } from '../paging';
import { parseSearchType } from '../../../shared/search';
import { decodeKeyword } from '../../../shared/search-keyword';
import type { ArticlePage } from '../../../shared/types/entities';
import { siteTitle } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type SearchData } from '../../../shared/pages/search/route';

export const SEARCH_PAGE_SIZE = 20;

export const loadSearch: Loader<SearchData> = async ({ params, query, site, content }) => {
  const page = pageFromQuery(query.get('page'));
  if (page === null) return { kind: 'not-found' };
  const type = parseSearchType(params.type);
  const keyword = params.word ? decodeKeyword(params.word) : null;
  // A word that is no keyword has no page (the edge already 404s it: shared/routes.ts routeSpelling).
  if (params.word && keyword === null) return { kind: 'not-found' };
  const empty: ArticlePage = { items: [], total: 0, page, pageSize: SEARCH_PAGE_SIZE };
  const results = keyword ? await content.search(keyword, type, page, SEARCH_PAGE_SIZE) : empty;
  const last = lastPage(results.total, SEARCH_PAGE_SIZE);
  if (page > last) return { kind: 'not-found' };
  return {
    kind: 'ok',
    data: { keyword: keyword ?? '', type, results, lastPage: last },
    head: {
      title: siteTitle(keyword ? `“${keyword}”的搜索结果` : '搜索', site),
      description: site.seo_description,
      keywords: site.seo_keywords,
    },
  };
};

export default definePageLoaders(route, { search: loadSearch });
