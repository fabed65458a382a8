/**
 * /topicDetail/{id} (and its /{menu}/{sub}/… forms): one topic with its articles, or, for menu entries whose
 * template 8 points at a category rather than a topic, the category's articles presented as a topic.
 */
import type { ArticleSummary } from '../../types/entities';
import { definePage, underMenu, withId } from '../define';

export interface TopicDetailData {
  title: string;
  description: string;
  cover: string;
  articles: ArticleSummary[];
}

export default definePage<TopicDetailData>()('topicDetail', [withId('topicDetail'), ...underMenu('topicDetail')]);
