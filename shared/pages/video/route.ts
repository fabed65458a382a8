/** /video/{catid}/{id} and /video/{id}: one video (HLS, hls.js in the browser) and related videos. */
import type { Video } from '../../types/entities';
import { definePage, route } from '../define';

export interface VideoData {
  video: Video;
  related: Video[];
}

export default definePage<VideoData>()('video', [
  route('video', 'video-catid-id', '/video/:catid/:id', { catid: 'id', id: 'id' }),
  route('video-id', 'video-id', '/video/:id', { id: 'id' }),
]);
