/**
 * Page components by page id. They are bundled into the browser entry rather than split one chunk per page: a page
 * chunk weighed 1–2 KB and pulled in a dozen shared chunks of a few hundred bytes each (esbuild splits code shared
 * by the entry and a page into its own file), so every page paid ~20 requests for code it mostly needed anyway.
 * What stays split is what is large and self-contained: swiper (carousel-engine.ts) and hls.js (VideoPlayer.tsx).
 * loadPage stays asynchronous so a page can be split out again without touching its callers.
 * A page's component takes its loader's data (shared/page-data.ts), checked here by the compiler.
 */
import type { ComponentType } from 'react';
import type { PageData, PageId } from '../../shared/page-data';
import HomePage from './HomePage';
import DetailPage from './DetailPage';
import ReadingPage from './ReadingPage';
import CategoryListPage from './CategoryListPage';
import TopicListPage from './TopicListPage';
import TopicDetailPage from './TopicDetailPage';
import InfoPage from './InfoPage';
import LicensePage from './LicensePage';
import SiteMapPage from './SiteMapPage';
import SpecialColumnPage from './SpecialColumnPage';
import PersonalCenterPage from './PersonalCenterPage';
import SearchPage from './SearchPage';
import ArticleFeedPage from './ArticleFeedPage';
import NewsTrackPage from './NewsTrackPage';
import GalleryPage from './GalleryPage';
import VideoPage from './VideoPage';
import VideoAlbumPage from './VideoAlbumPage';
import ShikePage from './ShikePage';
import LivePage from './LivePage';
import NewspaperPage from './NewspaperPage';
import NewspaperShelfPage from './NewspaperShelfPage';

export type PageComponent<P extends PageId> = ComponentType<{ data: PageData<P> }>;

const PAGES: { [P in PageId]: PageComponent<P> } = {
  home: HomePage,
  detail: DetailPage,
  reading: ReadingPage,
  categoryList: CategoryListPage,
  topicList: TopicListPage,
  topicDetail: TopicDetailPage,
  info: InfoPage,
  license: LicensePage,
  siteMap: SiteMapPage,
  specialColumn: SpecialColumnPage,
  personalCenter: PersonalCenterPage,
  search: SearchPage,
  articleFeed: ArticleFeedPage,
  newsTrack: NewsTrackPage,
  gallery: GalleryPage,
  video: VideoPage,
  videoAlbum: VideoAlbumPage,
  shike: ShikePage,
  live: LivePage,
  newspaper: NewspaperPage,
  newspaperShelf: NewspaperShelfPage,
};

export async function loadPage<P extends PageId>(id: P): Promise<PageComponent<P>> {
  return PAGES[id];
}

/** The component of a page. */
export function loadedPage<P extends PageId>(id: P): PageComponent<P> {
  return PAGES[id];
}
