/**
 * Each page's data: what its loader (server only, server/render/page-loaders.ts) returns and what its component
 * (client/pages) takes as `data`. Both sides are typed from this one map, so the compiler checks that a page's
 * loader and component agree. Type-only imports: nothing here reaches a bundle.
 */
import type { ArticleFeedData } from './loaders/article-feeds';
import type { CategoryListData } from './loaders/category-list';
import type { DetailData } from './loaders/detail';
import type { GalleryData } from './loaders/gallery';
import type { HomeData } from './loaders/home';
import type { InfoPageData } from './loaders/info-page';
import type { LiveData } from './loaders/live';
import type { ShikeData, VideoAlbumData, VideoData } from './loaders/media';
import type { NewspaperData, NewspaperShelfData } from './loaders/newspaper';
import type { ReadingData } from './loaders/reading';
import type { SearchData } from './loaders/search';
import type { SiteMapData } from './loaders/simple-pages';
import type { SpecialColumnData } from './loaders/special-column';
import type { TopicDetailData, TopicListData } from './loaders/topics';
import type { PersonalCenterData } from './personal-center';
import type { SpecialReport } from './types/entities';

export interface PageDataMap {
  home: HomeData;
  detail: DetailData;
  reading: ReadingData;
  categoryList: CategoryListData;
  topicList: TopicListData;
  topicDetail: TopicDetailData;
  info: InfoPageData;
  license: Record<string, never>;
  siteMap: SiteMapData;
  specialColumn: SpecialColumnData;
  personalCenter: PersonalCenterData;
  search: SearchData;
  articleFeed: ArticleFeedData;
  newsTrack: SpecialReport;
  gallery: GalleryData;
  video: VideoData;
  videoAlbum: VideoAlbumData;
  shike: ShikeData;
  live: LiveData;
  newspaper: NewspaperData;
  newspaperShelf: NewspaperShelfData;
}

/** Pages implemented in client/pages. */
export type PageId = keyof PageDataMap;

export type PageData<P extends PageId> = PageDataMap[P];
