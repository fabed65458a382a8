/** /hd (picture stories) and /poster (posters): the curated 精品 items of one type, page by page. */
import type { BoutiqueItem } from '../../types/entities';
import { definePage, fixed, PAGED } from '../define';

export interface GalleryData {
  kind: 'hd' | 'poster';
  title: string;
  items: BoutiqueItem[];
  page: number;
  lastPage: number;
}

export default definePage<GalleryData>()('gallery', [fixed('hd', '/hd', { query: PAGED }), fixed('poster', '/poster', { query: PAGED })]);
