/** Video pages: one video, a video album, and a 视刻 category's videos. Players are HLS (hls.js in the browser). */
import { idParam } from '../route-params';
import { lastPage, pageFromQuery } from '../paging';
import { isoDateTime } from '../time';
import type { SiteConfig } from '../sites';
import type { ShikeCategory, Video, VideoAlbum } from '../types/entities';
import { absoluteUrl, logoUrl, rasterImage } from '../share-image';
import { shareImageOf, siteTitle } from './helpers';
import type { Loader } from './types';

export const SHIKE_PAGE_SIZE = 12;
const RELATED_VIDEOS = 8;

export interface VideoData {
  video: Video;
  related: Video[];
}

export interface VideoAlbumData {
  album: VideoAlbum;
  /** The video playing: ?v= when it belongs to the album, else the first. */
  current: Video;
}

export interface ShikeData {
  category: ShikeCategory;
  categories: ShikeCategory[];
  videos: Video[];
  page: number;
  lastPage: number;
}

/** schema.org VideoObject: what search engines show as a video result. */
export function videoJsonLd(video: Video, site: SiteConfig): Record<string, unknown> {
  const contentUrl = absoluteUrl(video.hls_url, site);
  return {
    '@context': 'https://schema.org',
    '@type': 'VideoObject',
    name: video.title,
    description: video.description || video.title,
    thumbnailUrl: [rasterImage(site, [video.cover]) ?? logoUrl(site)],
    uploadDate: isoDateTime(video.adddate),
    duration: `PT${Math.max(1, Math.round(video.duration))}S`,
    ...(contentUrl ? { contentUrl } : {}),
    url: `https://${site.domain}/video/${video.catid}/${video.id}`,
    publisher: { '@type': 'Organization', name: site.seo_title },
  };
}

export const loadVideo: Loader<VideoData> = async ({ params, site, content }) => {
  const id = idParam(params, 'id');
  const catid = idParam(params, 'catid');
  if (id === undefined) return { kind: 'not-found' };
  const video = await content.video(id);
  if (!video || (catid !== undefined && catid !== video.catid)) return { kind: 'not-found' };
  const siblings = await content.shikeVideos(video.category_id, 1, RELATED_VIDEOS + 1);
  const related = (siblings?.list ?? []).filter((item) => item.id !== video.id).slice(0, RELATED_VIDEOS);
  return {
    kind: 'ok',
    data: { video, related },
    head: {
      title: siteTitle(video.title, site),
      description: video.description,
      keywords: `${video.title},视频`,
      ogType: 'video.other',
      ...shareImageOf(site, [video.cover]),
      jsonLd: videoJsonLd(video, site),
    },
  };
};

export const loadVideoAlbum: Loader<VideoAlbumData> = async ({ params, query, site, content }) => {
  const id = idParam(params, 'id');
  if (id === undefined) return { kind: 'not-found' };
  const album = await content.videoAlbum(id);
  const first = album?.videos[0];
  if (!album || !first) return { kind: 'not-found' };
  const wanted = Number(query.get('v'));
  const current = album.videos.find((video) => video.id === wanted) ?? first;
  return {
    kind: 'ok',
    data: { album, current },
    head: {
      title: siteTitle(album.title, site),
      description: album.description,
      keywords: `${album.title},视频专辑`,
      ogType: 'video.other',
      ...shareImageOf(site, [album.cover, current.cover]),
      jsonLd: videoJsonLd(current, site),
    },
  };
};

export const loadShike: Loader<ShikeData> = async ({ params, query, site, content }) => {
  const id = idParam(params, 'id');
  const page = pageFromQuery(query.get('page'));
  if (id === undefined || page === null) return { kind: 'not-found' };
  const [categories, result] = await Promise.all([content.shikeCategories(), content.shikeVideos(id, page, SHIKE_PAGE_SIZE)]);
  if (!result) return { kind: 'not-found' };
  const last = lastPage(result.total, SHIKE_PAGE_SIZE);
  if (page > last) return { kind: 'not-found' };
  return {
    kind: 'ok',
    data: { category: result.category, categories, videos: result.list, page, lastPage: last },
    head: {
      title: siteTitle(`视刻 · ${result.category.name}`, site),
      description: result.category.description,
      keywords: `视刻,短视频,${result.category.name}`,
    },
  };
};
