/** Home (/ and /home): the site's home categories with their latest articles, and the homepage ad slots. */
import type { HomeAdSlot } from '../../content-api';
import type { ArticleLink, Live } from '../../types/entities';
import { definePage, route } from '../define';

export interface HomeBlock {
  catid: number;
  catname: string;
  /** Links only: the page shows titles and times, so the hydration state carries no summaries or pictures. */
  items: ArticleLink[];
}

/** A live as home lists it: what the 直播 block shows, nothing more in the hydration state. */
export type HomeLive = Pick<Live, 'id' | 'title' | 'status' | 'start_time'>;

/** A news-tracking report as home lists it. */
export interface HomeNewsTrack {
  id: number;
  title: string;
  ongoing: boolean;
  updates: number;
}

export interface HomeData {
  blocks: HomeBlock[];
  /** Only the slots home places (shared/home-ad-slots.ts): an ad in the state is an ad on the page. */
  adSlots: HomeAdSlot[];
  /** On air first, then the soonest upcoming (at most HOME_LIVES). */
  lives: HomeLive[];
  /** The reports updated last (at most HOME_NEWS_TRACKS). */
  newsTracks: HomeNewsTrack[];
}

export default definePage<HomeData>()('home', [route('home', 'home', '/', {}), route('home-alias', 'home', '/home', {})]);
