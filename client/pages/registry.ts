/**
 * Page modules by page id. Each is its own chunk in the browser (esbuild splits at these imports); the server
 * loads them all once at start. PAGE_SOURCES names the files so the build manifest can list each page's chunks
 * for modulepreload.
 */
import type { ComponentType } from 'react';
import type { PageId } from '../../shared/routes';

export type PageComponent = ComponentType<{ data: never }>;

const IMPORTERS: Record<PageId, () => Promise<{ default: PageComponent }>> = {
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

const loaded = new Map<PageId, PageComponent>();

export async function loadPage(id: PageId): Promise<PageComponent> {
  const known = loaded.get(id);
  if (known) return known;
  const module = await IMPORTERS[id]();
  loaded.set(id, module.default);
  return module.default;
}

/** The component of a page that loadPage has already resolved; undefined otherwise. */
export function loadedPage(id: PageId): PageComponent | undefined {
  return loaded.get(id);
}

export async function loadAllPages(): Promise<void> {
  await Promise.all((Object.keys(IMPORTERS) as PageId[]).map(loadPage));
}
