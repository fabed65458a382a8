/** /topic/{id}: the special topics (专题), page by page, titled by the menu entry {id}. */
import type { Topic } from '../../types/entities';
import { definePage, PAGED, withId } from '../define';

export interface TopicListData {
  title: string;
  topics: Topic[];
  page: number;
  lastPage: number;
}

export default definePage<TopicListData>()('topicList', [withId('topic', { query: PAGED })]);
