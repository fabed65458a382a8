/**
 * Video, live streams, the boutique lists and the e-paper.
 * Each call says its cache key, policy family, tags, upstream request, schema and what 'not found' yields
 * (call.ts); content-service.ts runs them through the data cache.
 */
import type { ContentApi } from '../../../shared/content-api';
import type { BoutiqueItem, Live, LivePlayback, NewspaperIssue, Paged, ShikeCategory, Video, VideoAlbum } from '../../../shared/types/entities';
import type {
  RawBoutiqueList,
  RawLive,
  RawLivePlayback,
  RawNewspaperIssue,
  RawNewspaperSearch,
  RawPagedList,
  RawShikeCategory,
  RawShikeCategoryItems,
  RawVideo,
  RawVideoAlbum,
} from '../wire';
import {
  RawBoutiqueListSchema,
  RawLiveListSchema,
  RawLivePlaybackListSchema,
  RawLiveSchema,
  RawNewspaperSearchSchema,
  RawShikeCategoriesSchema,
  RawShikeCategoryItemsSchema,
  RawVideoAlbumSchema,
  RawVideoSchema,
} from '../wire';
import { STORED } from '../entity-schemas';
import * as normalise from '../normalise';
import { itemKeys, kept, type Call } from './call';

export type MediaApi = Pick<
  ContentApi,
  'boutique' | 'video' | 'videoAlbum' | 'shikeCategories' | 'shikeVideos' | 'live' | 'lives' | 'livePlaybacks' | 'newspapers'
>;

function isDated(issue: RawNewspaperIssue): issue is NewspaperIssue {
  return issue.issue_date !== null;
}

export function mediaCalls(call: Call): MediaApi {
  return {
    boutique: (type, page, pageSize) =>
      call<RawBoutiqueList, Paged<BoutiqueItem>>({
        family: 'media',
        key: `boutique:${type}:${page}:${pageSize}`,
        tags: ['boutique'],
        shows: (page) => itemKeys('boutique', page.list),
        without: (page, gone) => ({ ...page, list: page.list.filter(kept('boutique', gone)) }),
        request: { method: 'GET', path: `/api/boutique/list?type=${type}&page=${page}&page_size=${pageSize}`, call: 'boutique_list' },
        schema: RawBoutiqueListSchema,
        stored: STORED.boutiquePage,
        normalise: (raw) => normalise.paged(raw, pageSize, (item) => item),
        empty: { list: [], total: 0, page, pageSize },
      }),
    video: (id) =>
      call<RawVideo, Video | null>({
        family: 'media',
        key: `video:${id}`,
        tags: [`video:${id}`],
        request: { method: 'GET', path: `/api/video/detail?id=${id}`, call: 'video_detail' },
        schema: RawVideoSchema,
        stored: STORED.video,
        normalise: (raw) => raw,
        empty: null,
      }),
    videoAlbum: (id) =>
      call<RawVideoAlbum, VideoAlbum | null>({
        family: 'media',
        key: `video_album:${id}`,
        tags: [`album:${id}`],
        shows: (album) => (album ? itemKeys('video', album.videos) : []),
        without: (album, gone) => (album ? { ...album, videos: album.videos.filter(kept('video', gone)) } : album),
        request: { method: 'GET', path: `/api/video_album/detail?id=${id}`, call: 'video_album_detail' },
        schema: RawVideoAlbumSchema,
        stored: STORED.videoAlbum,
        normalise: (raw) => raw,
        empty: null,
      }),
    shikeCategories: () =>
      call<RawShikeCategory[], ShikeCategory[]>({
        family: 'media',
        key: 'shike_categories',
        tags: ['shike'],
        request: { method: 'GET', path: '/api/video_album/shike_video_category', call: 'shike_video_category' },
        schema: RawShikeCategoriesSchema,
        stored: STORED.shikeCategories,
        normalise: (raw) => raw,
        empty: [],
      }),
    shikeVideos: (categoryId, page, pageSize) =>
      call<RawShikeCategoryItems, (Paged<Video> & { category: ShikeCategory }) | null>({
        family: 'media',
        key: `shike_items:${categoryId}:${page}:${pageSize}`,
        tags: ['shike', `shike:${categoryId}`],
        shows: (page) => (page ? itemKeys('video', page.list) : []),
        without: (page, gone) => (page ? { ...page, list: page.list.filter(kept('video', gone)) } : page),
        request: {
          method: 'GET',
          path: `/api/video_album/shike_video_category_item?id=${categoryId}&page=${page}&page_size=${pageSize}`,
          call: 'shike_video_category_item',
        },
        schema: RawShikeCategoryItemsSchema,
        stored: STORED.shikeCategoryVideos,
        normalise: (raw) => ({ ...normalise.paged(raw, pageSize, (item) => item), category: raw.category }),
        empty: null,
      }),
    live: (id) =>
      call<RawLive, Live | null>({
        family: 'live',
        key: `live:${id}`,
        tags: [`live:${id}`],
        request: { method: 'GET', path: `/api/live/info?id=${id}`, call: 'live_info' },
        schema: RawLiveSchema,
        stored: STORED.live,
        normalise: (raw) => raw,
        empty: null,
      }),
    lives: (status, page, pageSize) =>
      call<RawPagedList<RawLive>, Paged<Live>>({
        family: 'live',
        key: `live_list:${status}:${page}:${pageSize}`,
        tags: ['lives'],
        shows: (page) => itemKeys('live', page.list),
        without: (page, gone) => ({ ...page, list: page.list.filter(kept('live', gone)) }),
        request: { method: 'GET', path: `/api/live/list?show_type=${status}&page=${page}&page_size=${pageSize}`, call: 'live_list' },
        schema: RawLiveListSchema,
        stored: STORED.livePage,
        normalise: (raw) => normalise.paged(raw, pageSize, (item) => item),
        empty: { list: [], total: 0, page, pageSize },
      }),
    livePlaybacks: (liveId, page, pageSize) =>
      call<RawPagedList<RawLivePlayback>, Paged<LivePlayback>>({
        family: 'live',
        key: `live_playback:${liveId}:${page}:${pageSize}`,
        tags: [`live:${liveId}`],
        request: { method: 'GET', path: `/api/live/playback_list?id=${liveId}&page=${page}&page_size=${pageSize}`, call: 'live_playback_list' },
        schema: RawLivePlaybackListSchema,
        stored: STORED.playbackPage,
        normalise: (raw) => normalise.paged(raw, pageSize, (item) => item),
        empty: { list: [], total: 0, page, pageSize },
      }),
    newspapers: (catid, query, page, pageSize) =>
      call<RawNewspaperSearch, Paged<NewspaperIssue>>({
        family: 'newspaper',
        key: `newspapers:${catid}:${page}:${pageSize}:${encodeURIComponent(query)}`,
        tags: ['newspaper', `cat:${catid}`],
        request: {
          method: 'GET',
          path: `/api/rmt/read_newspapers_search?${new URLSearchParams({ q: query, catid: String(catid), page: String(page), page_size: String(pageSize) })}`,
          call: 'read_newspapers_search',
        },
        schema: RawNewspaperSearchSchema,
        stored: STORED.newspaperPage,
        // An issue is addressed by its date: one the CMS sent no usable date for cannot be linked to, so it is left out.
        normalise: (raw) => {
          const issues = normalise.paged(raw, pageSize, (item) => item);
          return { ...issues, list: issues.list.filter(isDated) };
        },
        empty: { list: [], total: 0, page, pageSize },
      }),
  };
}
