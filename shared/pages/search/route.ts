/** /search/{word?}/{type?}: results for the base64-encoded keyword, type 1 recent or 2 all, with paging. */
import type { ArticlePage } from '../../types/entities';
import { definePage, PAGED, route } from '../define';

export interface SearchData {
  keyword: string;
  type: 1 | 2;
  results: ArticlePage;
  lastPage: number;
}

export default definePage<SearchData>()('search', [
  route('search', 'search-word-type', '/search/:word?/:type?', { word: 'searchWord', type: 'searchType' }, { query: PAGED }),
]);
