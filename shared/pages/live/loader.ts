/** /liveStreamDetail/{id} and /videoLive/{catid?}/{id}: a live broadcast — the stream while on air, the start time before, recordings after. */
import { entityInCategory, mediaHead } from '../../loaders/helpers';
import type { Loader } from '../../loaders/types';
import { definePageLoaders } from '../../loaders/define';
import route, { type LiveData } from './route';

const PLAYBACKS_SHOWN = 12;

export const loadLive: Loader<LiveData> = async ({ params, site, content }) => {
  const live = await entityInCategory(params, (id) => content.live(id));
  if (!live) return { kind: 'not-found' };
  const playbacks = live.status === 3 ? (await content.livePlaybacks(live.id, 1, PLAYBACKS_SHOWN)).list : [];
  return {
    kind: 'ok',
    data: { live, playbacks },
    head: mediaHead(site, { title: live.title, description: live.description, kind: '直播', images: [live.cover] }),
  };
};

export default definePageLoaders(route, { 'liveStreamDetail-id': loadLive, videoLive: loadLive, 'videoLive-id': loadLive });
