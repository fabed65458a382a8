/**
 * The signed-in reader's own lists (docs/product.md §7 interaction calls), as the personal center's loader reads them. The
 * server implements it with the session's token (server/upstream/account-service.ts); the token never reaches a
 * loader, a page state or the browser. Never cached: each answer belongs to one reader.
 */
import type { ArticleSummary, ColumnAuthor, Paged, Tag, Video } from './types/entities';

/** What a list of collected videos shows of each. */
export type CollectedVideo = Pick<Video, 'id' | 'catid' | 'title' | 'cover' | 'duration' | 'adddate'>;

/**
 * ok: the page of the list. unavailable: the CMS did not answer (or answered nonsense), so the section says it
 * cannot load rather than 'empty'. signed-out: the CMS no longer knows the token; the session has been ended.
 */
export type AccountList<T> = { kind: 'ok'; page: Paged<T> } | { kind: 'unavailable' } | { kind: 'signed-out' };

export interface AccountApi {
  /** GET /api/collection/list_and_article_detail?page&page_size */
  collectedArticles(page: number, pageSize: number): Promise<AccountList<ArticleSummary>>;
  /** GET /api/collection_video/list_and_article_detail?page&page_size */
  collectedVideos(page: number, pageSize: number): Promise<AccountList<CollectedVideo>>;
  /** GET /api/special_column_author/subscribe_list?page&page_size */
  subscribedAuthors(page: number, pageSize: number): Promise<AccountList<ColumnAuthor>>;
  /** GET /api/tag/get_subscribe_list?page&page_size */
  subscribedTags(page: number, pageSize: number): Promise<AccountList<Tag>>;
}
