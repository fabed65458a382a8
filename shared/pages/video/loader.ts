/** /video/{catid}/{id} and /video/{id}: one video and its category's other videos. */
import { idParam } from '../../route-params';
import { shareImageOf, siteTitle } from '../../loaders/helpers';
import type { Loader } from '../../loaders/types';
import { definePageLoaders } from '../../loaders/define';
import { videoJsonLd } from '../../loaders/video-json-ld';
import route, { type VideoData } from './route';

const RELATED_VIDEOS = 8;

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

export default definePageLoaders(route, { video: loadVideo, 'video-id': loadVideo });
