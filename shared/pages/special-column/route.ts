/** /specialColumn: the column authors (专栏作者), a page at a time. */
import type { ColumnAuthor } from '../../types/entities';
import { definePage, fixed, PAGED } from '../define';

export interface SpecialColumnData {
  authors: ColumnAuthor[];
  page: number;
  lastPage: number;
}

export default definePage<SpecialColumnData>()('specialColumn', [fixed('specialColumn', '/specialColumn', { query: PAGED })]);
