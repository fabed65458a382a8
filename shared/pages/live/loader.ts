/** /liveStreamDetail/{id} and /videoLive/{catid?}/{id}: a live broadcast — the stream while on air, the start time before, recordings after. */
import { idParam } from '../../route-params';
import { shareImageOf, siteTitle } from '../../loaders/helpers';
import type { Loader } from '../../loaders/types';
import { definePageLoaders } from '../../loaders/define';
import route, { type LiveData } from './route';

const PLAYBACKS_SHOWN = 12;

export const loadLive: Loader<LiveData> = async ({ params, site, content }) => {
  const id = idParam(params, 'id');
  const catid = idParam(params, 'catid');
  if (id === undefined) return { kind: 'not-found' };
  const live = await content.live(id);
  if (!live || (catid !== undefined && catid !== live.catid)) return { kind: 'not-found' };
  const playbacks = live.status === 3 ? (await content.livePlaybacks(id, 1, PLAYBACKS_SHOWN)).list : [];
  return {
    kind: 'ok',
    data: { live, playbacks },
    head: {
      title: siteTitle(live.title, site),
      description: live.description,
      keywords: `${live.title},直播`,
      ogType: 'video.other',
      ...shareImageOf(site, [live.cover]),
    },
  };
};

export default definePageLoaders(route, { 'liveStreamDetail-id': loadLive, videoLive: loadLive, 'videoLive-id': loadLive });
