/**
 * Page modules by page id. Each is its own chunk in the browser (esbuild splits at these imports); both sides load
 * a page's module before rendering it (the server per request, from its bundle; the browser before hydrating or
 * swapping in a page). PAGE_SOURCES names the files so the build manifest can list each page's chunks for
 * modulepreload. A page's component takes its loader's data (shared/page-data.ts), checked here by the compiler.
 */
import type { ComponentType } from 'react';
import type { PageData, PageId } from '../../shared/page-data';

export type PageComponent<P extends PageId> = ComponentType<{ data: PageData<P> }>;

const IMPORTERS: { [P in PageId]: () => Promise<{ default: PageComponent<P> }> } = {
  home: () => import('./HomePage'),
  detail: () => import('./DetailPage'),
  reading: () => import('./ReadingPage'),
  categoryList: () => import('./CategoryListPage'),
  topicList: () => import('./TopicListPage'),
  topicDetail: () => import('./TopicDetailPage'),
  info: () => import('./InfoPage'),
  license: () => import('./LicensePage'),
  siteMap: () => import('./SiteMapPage'),
  specialColumn: () => import('./SpecialColumnPage'),
  personalCenter: () => import('./PersonalCenterPage'),
  search: () => import('./SearchPage'),
  articleFeed: () => import('./ArticleFeedPage'),
  newsTrack: () => import('./NewsTrackPage'),
  gallery: () => import('./GalleryPage'),
  video: () => import('./VideoPage'),
  videoAlbum: () => import('./VideoAlbumPage'),
  shike: () => import('./ShikePage'),
  live: () => import('./LivePage'),
  newspaper: () => import('./NewspaperPage'),
  newspaperShelf: () => import('./NewspaperShelfPage'),
};

export const PAGE_SOURCES: Record<PageId, string> = {
  home: 'client/pages/HomePage.tsx',
  detail: 'client/pages/DetailPage.tsx',
  reading: 'client/pages/ReadingPage.tsx',
  categoryList: 'client/pages/CategoryListPage.tsx',
  topicList: 'client/pages/TopicListPage.tsx',
  topicDetail: 'client/pages/TopicDetailPage.tsx',
  info: 'client/pages/InfoPage.tsx',
  license: 'client/pages/LicensePage.tsx',
  siteMap: 'client/pages/SiteMapPage.tsx',
  specialColumn: 'client/pages/SpecialColumnPage.tsx',
  personalCenter: 'client/pages/PersonalCenterPage.tsx',
  search: 'client/pages/SearchPage.tsx',
  articleFeed: 'client/pages/ArticleFeedPage.tsx',
  newsTrack: 'client/pages/NewsTrackPage.tsx',
  gallery: 'client/pages/GalleryPage.tsx',
  video: 'client/pages/VideoPage.tsx',
  videoAlbum: 'client/pages/VideoAlbumPage.tsx',
  shike: 'client/pages/ShikePage.tsx',
  live: 'client/pages/LivePage.tsx',
  newspaper: 'client/pages/NewspaperPage.tsx',
  newspaperShelf: 'client/pages/NewspaperShelfPage.tsx',
};

type LoadedPages = { [P in PageId]?: PageComponent<P> };
const loaded: LoadedPages = {};

/** Stores a page's component under its own id (generic, so the compiler checks the pairing). */
function remember<P extends PageId>(pages: { [Q in P]?: PageComponent<Q> }, id: P, component: PageComponent<P>): void {
  pages[id] = component;
}

export async function loadPage<P extends PageId>(id: P): Promise<PageComponent<P>> {
  const known = loaded[id];
  if (known) return known;
  const module = await IMPORTERS[id]();
  remember(loaded, id, module.default);
  return module.default;
}

/** The component of a page that loadPage has already resolved; undefined otherwise. */
export function loadedPage<P extends PageId>(id: P): PageComponent<P> | undefined {
  return loaded[id];
}
