/** Reading mode (/detailReading/{catid}/{id}): the article, and its neighbours in the category's list. */
import type { Article } from '../../types/entities';
import { definePage, route } from '../define';

export interface ReadingNeighbour {
  catid: number;
  id: number;
  title: string;
  adddate: number | null;
}

export interface ReadingData {
  article: Article;
  previous: ReadingNeighbour | null;
  next: ReadingNeighbour | null;
}

export default definePage<ReadingData>()('reading', [
  route('detailReading', 'detailReading-catid-id', '/detailReading/:catid?/:id?', { catid: 'id', id: 'id' }, { layout: 'reading' }),
]);
