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

export default definePage<ShikeData>()('shike', [withId('shike', { query: PAGED })]);
