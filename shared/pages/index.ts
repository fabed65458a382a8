/**
 * The list of pages: one line per folder of shared/pages, its route module, in the order the route table tries
 * them (shared/routes.ts ranks a route by its path first, so the order matters only between routes of equal rank,
 * which never overlap). The name is the page id: the folder's name in camelCase (server/pages/index.ts lists
 * each page's loader under the same name). Route modules only: no component, no loader, so the route table that is built from
 * this list at load time imports no React and no block that links back to it (no import cycle).
 */
export { default as home } from './home/route';
export { default as detail } from './detail/route';
export { default as reading } from './reading/route';
export { default as categoryList } from './category-list/route';
export { default as topicList } from './topic-list/route';
export { default as topicDetail } from './topic-detail/route';
export { default as info } from './info/route';
export { default as license } from './license/route';
export { default as siteMap } from './site-map/route';
export { default as specialColumn } from './special-column/route';
export { default as personalCenter } from './personal-center/route';
export { default as search } from './search/route';
export { default as articleFeed } from './article-feed/route';
export { default as newsTrack } from './news-track/route';
export { default as gallery } from './gallery/route';
export { default as video } from './video/route';
export { default as videoAlbum } from './video-album/route';
export { default as shike } from './shike/route';
export { default as live } from './live/route';
export { default as newspaper } from './newspaper/route';
export { default as newspaperShelf } from './newspaper-shelf/route';
