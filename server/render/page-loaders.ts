/**
 * Which loader fills each route's page: server only, so the content API code never reaches the browser (the route
 * table in shared/routes.ts is; scripts/build.mjs checks that no loader is reachable from the browser entry).
 * Keyed by route id, typed so that a route's loader returns the data its page's component takes.
 */
import { loadColumnist, loadHeadlineNews, loadTagDetail } from '../../shared/loaders/article-feeds';
import { loadCategoryList } from '../../shared/loaders/category-list';
import { loadDetail } from '../../shared/loaders/detail';
import { galleryLoader } from '../../shared/loaders/gallery';
import { loadHome } from '../../shared/loaders/home';
import { infoPageLoader } from '../../shared/loaders/info-page';
import { loadLive } from '../../shared/loaders/live';
import { loadShike, loadVideo, loadVideoAlbum } from '../../shared/loaders/media';
import { loadNewsTrack } from '../../shared/loaders/news-track';
import { loadNewspaper, loadNewspaperShelf } from '../../shared/loaders/newspaper';
import { loadPersonalCenter } from '../../shared/loaders/personal-center';
import { loadReading } from '../../shared/loaders/reading';
import { loadSearch } from '../../shared/loaders/search';
import { loadLicense, loadSiteMap } from '../../shared/loaders/simple-pages';
import { loadSpecialColumn } from '../../shared/loaders/special-column';
import { loadTopicDetail, loadTopicList } from '../../shared/loaders/topics';
import type { Loader } from '../../shared/loaders/types';
import type { PageData } from '../../shared/page-data';
import type { PageOfRoute, PageRouteId } from '../../shared/routes';

/** The loader of the page a route shows. */
export type RouteLoader<Id extends PageRouteId> = Loader<PageData<PageOfRoute<Id>>>;

type PageLoaders = { [Id in PageRouteId]: RouteLoader<Id> };

const PAGE_LOADERS: PageLoaders = {
  home: loadHome,
  'home-alias': loadHome,
  about: infoPageLoader('about'),
  contribute: infoPageLoader('contribute'),
  electronic: loadNewspaperShelf,
  hd: galleryLoader('hd'),
  headlineNews: loadHeadlineNews,
  license: loadLicense,
  moveInto: infoPageLoader('moveInto'),
  newspaperBoard: loadNewspaperShelf,
  personalCenter: loadPersonalCenter,
  poster: galleryLoader('poster'),
  seekingReport: infoPageLoader('seekingReport'),
  siteMap: loadSiteMap,
  specialColumn: loadSpecialColumn,

  'liveStreamDetail-id': loadLive,
  'newsTrack-id': loadNewsTrack,
  'readNewspapers_v2-id': loadNewspaper,
  'readNewspapers-id': loadNewspaper,
  'shike-id': loadShike,
  'specialColumnDetail-id': loadColumnist,
  'topic-id': loadTopicList,
  'topicDetail-id': loadTopicDetail,
  'V1-id': loadCategoryList,
  'V2-id': loadCategoryList,
  'videoAlbum-id': loadVideoAlbum,

  detail: loadDetail,
  detailReading: loadReading,
  search: loadSearch,
  tagDetail: loadTagDetail,
  video: loadVideo,
  'video-id': loadVideo,
  videoLive: loadLive,
  'videoLive-id': loadLive,
  'menu-sub-topicDetail-id': loadTopicDetail,
  'menu-topicDetail-id': loadTopicDetail,
  'menu-sub-V1-id': loadCategoryList,
  'menu-V1-id': loadCategoryList,
  'menu-sub-V2-id': loadCategoryList,
  'menu-V2-id': loadCategoryList,
};

export function loaderOf<Id extends PageRouteId>(routeId: Id): RouteLoader<Id> {
  return PAGE_LOADERS[routeId];
}
