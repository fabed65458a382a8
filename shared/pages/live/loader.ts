/** /liveStreamDetail/{id} and /videoLive/{catid?}/{id}: a live broadcast — the stream while on air, the start time before, recordings after. */
import { entityInCategory, mediaHead } from '../../loaders/helpers';
import { href } from '../../routes';
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

/**
 * /videoLive/{catid}/{id} and /videoLive/{id}: other paths of the page every link of the site names
 * /liveStreamDetail/{id} (href.live), so a 301 to it once the live is found where it was asked for (docs/security.md,
 * "One path per page"): never a second cache entry or canonical link of the same broadcast.
 */
export const loadLiveAlias: Loader<LiveData> = async ({ params, content }) => {
  const live = await entityInCategory(params, (id) => content.live(id));
  return live ? { kind: 'redirect', location: href.live(live.id), permanent: true } : { kind: 'not-found' };
};

export default definePageLoaders(route, { 'liveStreamDetail-id': loadLive, videoLive: loadLiveAlias, 'videoLive-id': loadLiveAlias });
