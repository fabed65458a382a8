/** /shike/{id}: a 视刻 category's short videos, page by page, with the other categories as tabs. */
import type { ShikeCategory, Video } from '../../types/entities';
import { definePage, PAGED, withId } from '../define';

export interface ShikeData {
  category: ShikeCategory;
  categories: ShikeCategory[];
  videos: Video[];
  page: number;
  lastPage: number;
}

const SECTION = '视刻';

/**
 * A category's heading and title: '视刻 · 名称', or the name alone when it already starts with 视刻 (the CMS
 * names the first category 视刻 itself, which read '视刻 · 视刻', issue 29).
 */
export function shikeTitle(categoryName: string): string {
  const name = categoryName.trim();
  return name.startsWith(SECTION) ? name : `${SECTION} · ${name}`;
}

export default definePage<ShikeData>()('shike', [withId('shike', { query: PAGED })]);
