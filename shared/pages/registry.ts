/**
 * Every page by id, with its component: each folder's index.ts (its route with its component). Typed as one entry
 * for each page of the list (./index.ts, the route modules): the compiler fails on a page missing here, one too
 * many, or an entry whose route names another id or whose component takes other data (shared/page-data.ts), with
 * no cast. This module is above the blocks the components use; the route table (shared/routes.ts) is below them.
 *
 * Page components are bundled into the browser entry rather than split one chunk per page: a page chunk weighed
 * 1–2 KB and pulled in a dozen shared chunks of a few hundred bytes each (esbuild splits code shared by the entry
 * and a page into its own file), so every page paid ~20 requests for code it mostly needed anyway. What stays
 * split is what is large and self-contained: swiper (carousel-engine.ts) and hls.js (VideoPlayer.tsx). loadPage
 * stays asynchronous so a page can be split out again without touching its callers.
 */
import type { ComponentType } from 'react';
import type { PageData, PageId, PageRouteIdOf } from '../page-data';
import type { Page } from './define';
import home from './home';
import detail from './detail';
import reading from './reading';
import categoryList from './category-list';
import topicList from './topic-list';
import topicDetail from './topic-detail';
import info from './info';
import license from './license';
import siteMap from './site-map';
import specialColumn from './special-column';
import personalCenter from './personal-center';
import search from './search';
import articleFeed from './article-feed';
import newsTrack from './news-track';
import gallery from './gallery';
import video from './video';
import videoAlbum from './video-album';
import shike from './shike';
import live from './live';
import newspaper from './newspaper';
import newspaperShelf from './newspaper-shelf';

export type PageComponent<P extends PageId> = ComponentType<{ data: PageData<P> }>;

export type PageEntry<P extends PageId> = Page<P, PageRouteIdOf<P>, PageData<P>>;

export const PAGES: { readonly [P in PageId]: PageEntry<P> } = {
  home,
  detail,
  reading,
  categoryList,
  topicList,
  topicDetail,
  info,
  license,
  siteMap,
  specialColumn,
  personalCenter,
  search,
  articleFeed,
  newsTrack,
  gallery,
  video,
  videoAlbum,
  shike,
  live,
  newspaper,
  newspaperShelf,
};

export async function loadPage<P extends PageId>(id: P): Promise<PageComponent<P>> {
  return PAGES[id].Component;
}

/** The component of a page. */
export function loadedPage<P extends PageId>(id: P): PageComponent<P> {
  return PAGES[id].Component;
}
