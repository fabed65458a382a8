/**
 * The list of pages: one line per folder of shared/pages, in the order the route table tries them (shared/routes.ts
 * ranks a route by its path first, so the order matters only between routes of equal rank, which never overlap).
 * The name is the page id: the folder's name in camelCase (server/render/page-loaders.ts finds `loader.ts` by it).
 * Browser-safe: a folder's index holds its route and its component; its loader is never imported from here.
 */
export { default as home } from './home';
export { default as detail } from './detail';
export { default as reading } from './reading';
export { default as categoryList } from './category-list';
export { default as topicList } from './topic-list';
export { default as topicDetail } from './topic-detail';
export { default as info } from './info';
export { default as license } from './license';
export { default as siteMap } from './site-map';
export { default as specialColumn } from './special-column';
export { default as personalCenter } from './personal-center';
export { default as search } from './search';
export { default as articleFeed } from './article-feed';
export { default as newsTrack } from './news-track';
export { default as gallery } from './gallery';
export { default as video } from './video';
export { default as videoAlbum } from './video-album';
export { default as shike } from './shike';
export { default as live } from './live';
export { default as newspaper } from './newspaper';
export { default as newspaperShelf } from './newspaper-shelf';
