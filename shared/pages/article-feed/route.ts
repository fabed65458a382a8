/**
 * Pages that are a titled, paged list of articles: headline news, a column author's articles, a tag's articles.
 * One data shape, one page component, a loader per route.
 */
import type { ArticlePage } from '../../types/entities';
import type { SubscriptionKind } from '../../types/interactions';
import { definePage, fixed, PAGED, route, withId } from '../define';

export interface ArticleFeedData {
  title: string;
  intro: string;
  avatar: string;
  /** e.g. '12 篇文章' for a columnist. */
  meta: string;
  articles: ArticlePage;
  lastPage: number;
  /** What a reader can subscribe to on this page (the tag, the column author); null for headline news. */
  subscription: { kind: SubscriptionKind; id: number } | null;
}

const FEED = { query: PAGED };

export default definePage<ArticleFeedData>()('articleFeed', [
  fixed('headlineNews', '/headlineNews', FEED),
  withId('specialColumnDetail', FEED),
  route('tagDetail', 'tagDetail-id', '/tagDetail/:id?/:title?', { id: 'id', title: 'text' }, FEED),
]);
