/** /video/{catid}/{id} and /video/{id}: one video and its category's other videos. */
import { entityInCategory, mediaHead } from '../helpers';
import { href } from '../../../shared/routes';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import { videoJsonLd } from '../video-json-ld';
import route, { type VideoData } from '../../../shared/pages/video/route';

const RELATED_VIDEOS = 8;

export const loadVideo: Loader<VideoData> = async ({ params, site, content }) => {
  const video = await entityInCategory(params, (id) => content.video(id));
  if (!video) return { kind: 'not-found' };
  const siblings = await content.shikeVideos(video.category_id, 1, RELATED_VIDEOS + 1);
  const related = (siblings?.list ?? []).filter((item) => item.id !== video.id).slice(0, RELATED_VIDEOS);
  return {
    kind: 'ok',
    data: { video, related },
    head: mediaHead(site, {
      title: video.title,
      description: video.description,
      kind: '视频',
      images: [video.cover],
      jsonLd: videoJsonLd(video, site),
    }),
  };
};

/**
 * /video/{id}: another path of the page every link of the site names with its category (href.video), so a 301 to
 * it (docs/security.md, "One path per page"): never a second cache entry or canonical link of the same video.
 */
export const loadVideoById: Loader<VideoData> = async ({ params, content }) => {
  const video = await entityInCategory(params, (id) => content.video(id));
  return video ? { kind: 'redirect', location: href.video(video.catid, video.id), permanent: true } : { kind: 'not-found' };
};

export default definePageLoaders(route, { video: loadVideo, 'video-id': loadVideoById });
