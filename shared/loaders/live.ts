/** /liveStreamDetail/{id} and /videoLive/{catid?}/{id}: a live broadcast — the stream while on air, the start time before, recordings after. */
import { idParam } from '../route-params';
import type { Live, LivePlayback } from '../types/entities';
import { shareImageOf, siteTitle } from './helpers';
import type { Loader } from './types';

const PLAYBACKS_SHOWN = 12;

export interface LiveData {
  live: Live;
  playbacks: LivePlayback[];
}

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
