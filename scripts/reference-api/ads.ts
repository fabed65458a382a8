/**
 * Advertising: the detail-layout groups (GET /api/ad/top) and the homepage slots by position
 * (GET /api/ad/list_by_column_id). Slot 7 does not exist in the CMS (docs/product.md §3 lists 1–6 and 8–16).
 */
import type { AdType, RawAdGroups, RawAdSlot, RawAdvertisement, RawArticleListItem } from '../../server/upstream/wire';
import { imagePath, videoPath } from './media';
import type { Rng } from './random';
import { AD_TITLES, EXTERNAL_AD_LINKS } from './words';

export const HOME_AD_POSITIONS: readonly number[] = [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16];
export const AD_GROUP_NAMES = ['detailTop', 'hotNewsTop', 'hotNewsBot', 'hotTopicBot', 'specialColBot'] as const;

const VIDEO_RATE = 0.25;
const EXTERNAL_LINK_RATE = 0.2;
const WIDE: readonly [number, number] = [1296, 120];
const SIDE: readonly [number, number] = [400, 225];
/** Positions rendered across the main column (main middle, home advertising, recommend-news bottom …). */
const WIDE_POSITIONS = new Set([5, 6, 8, 12, 13]);

export interface AdData {
  adGroups: RawAdGroups;
  /** Keyed by home catid: 2727 and every regional home catid. */
  homeAdSlots: Map<number, RawAdSlot[]>;
  /** Ads of type 2, whose video file the API serves. */
  videoAdIds: Set<number>;
}

class AdFactory {
  readonly videoAdIds = new Set<number>();

  constructor(
    private readonly rng: Rng,
    private nextId = 501,
  ) {}

  make(size: readonly [number, number], pool: readonly RawArticleListItem[]): RawAdvertisement {
    const id = this.nextId;
    this.nextId += 1;
    const adType: AdType = this.rng.chance(VIDEO_RATE) ? 2 : 1;
    if (adType === 2) this.videoAdIds.add(id);
    return {
      id,
      ad_type: adType,
      title: this.rng.pick(AD_TITLES),
      // Video ads keep an image: it is the poster shown before playback.
      image: imagePath(`ad${id}`, size[0], size[1]),
      video: adType === 2 ? videoPath(id) : '',
      jump_url: this.jumpUrl(pool),
    };
  }

  /** Mostly portal-relative article links, sometimes an external campaign page. */
  private jumpUrl(pool: readonly RawArticleListItem[]): string {
    if (pool.length === 0 || this.rng.chance(EXTERNAL_LINK_RATE)) return this.rng.pick(EXTERNAL_AD_LINKS);
    const target = this.rng.pick(pool);
    return `/detail/${target.catid}/${target.id}`;
  }

  many(min: number, max: number, size: readonly [number, number], pool: readonly RawArticleListItem[]): RawAdvertisement[] {
    return Array.from({ length: this.rng.int(min, max) }, () => this.make(size, pool));
  }
}

export function generateAds(
  rng: Rng,
  homeCatids: readonly number[],
  poolFor: (catid: number) => readonly RawArticleListItem[],
  groupPool: readonly RawArticleListItem[],
): AdData {
  const factory = new AdFactory(rng);
  const adGroups: RawAdGroups = {
    detailTop: factory.many(1, 3, WIDE, groupPool),
    hotNewsTop: factory.many(1, 3, SIDE, groupPool),
    hotNewsBot: factory.many(1, 3, SIDE, groupPool),
    hotTopicBot: factory.many(1, 3, SIDE, groupPool),
    specialColBot: factory.many(1, 3, SIDE, groupPool),
  };
  const homeAdSlots = new Map<number, RawAdSlot[]>();
  for (const catid of homeCatids) {
    const pool = poolFor(catid);
    homeAdSlots.set(
      catid,
      HOME_AD_POSITIONS.map((position) => ({
        position,
        list: factory.many(1, 2, WIDE_POSITIONS.has(position) ? WIDE : SIDE, pool),
      })),
    );
  }
  return { adGroups, homeAdSlots, videoAdIds: factory.videoAdIds };
}

/** Positions of the side column (hot news top/bottom, hot topic bottom, special column bottom). */
const SIDE_POSITIONS: readonly number[] = [1, 2, 3, 4];
/** Ids of the pseudo-category -4 ads start here, clear of the main ad range (a few hundred ads from 501). */
const RECOMMEND_FIRST_AD_ID = 9001;

/**
 * GET /api/ad/list_by_column_id?catid=-4: docs/product.md §7 says ads and recommended topics are also fetched for category -4,
 * the side column of pages that are not a home. Own random stream and id range, so the home slots stay unchanged.
 */
export function generateRecommendAds(rng: Rng, pool: readonly RawArticleListItem[]): { slots: RawAdSlot[]; videoAdIds: Set<number> } {
  const factory = new AdFactory(rng, RECOMMEND_FIRST_AD_ID);
  const slots = SIDE_POSITIONS.map((position) => ({ position, list: factory.many(1, 2, SIDE, pool) }));
  return { slots, videoAdIds: factory.videoAdIds };
}
