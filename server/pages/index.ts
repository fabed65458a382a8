/**
 * The list of page loaders: one line per page, its folder's loader.ts, named by the page id as in the list of
 * pages (shared/pages/index.ts), in the same order. ./registry.ts types it by page, so a page missing here, or a
 * line naming another page's loader, does not compile.
 */
export { default as home } from './home/loader';
export { default as detail } from './detail/loader';
export { default as reading } from './reading/loader';
export { default as categoryList } from './category-list/loader';
export { default as topicList } from './topic-list/loader';
export { default as topicDetail } from './topic-detail/loader';
export { default as info } from './info/loader';
export { default as license } from './license/loader';
export { default as siteMap } from './site-map/loader';
export { default as specialColumn } from './special-column/loader';
export { default as personalCenter } from './personal-center/loader';
export { default as search } from './search/loader';
export { default as articleFeed } from './article-feed/loader';
export { default as newsTrack } from './news-track/loader';
export { default as gallery } from './gallery/loader';
export { default as video } from './video/loader';
export { default as videoAlbum } from './video-album/loader';
export { default as shike } from './shike/loader';
export { default as live } from './live/loader';
export { default as newspaper } from './newspaper/loader';
export { default as newspaperShelf } from './newspaper-shelf/loader';
