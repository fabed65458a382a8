/** /liveStreamDetail/{id} and /videoLive/{catid?}/{id}: a live broadcast — the stream while on air, the start time before, recordings after. */
import { entityInCategory, mediaHead } from '../helpers';
import { href } from '../../../shared/routes';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import type { ContentApi } from '../../../shared/content-api';
import type { Live, LiveStatus } from '../../../shared/types/entities';
import route, { type LiveData, type OtherLive } from '../../../shared/pages/live/route';

const PLAYBACKS_SHOWN = 12;
/** Other lives listed per state (on air, upcoming, ended): the CMS's newest first. */
export const OTHERS_PER_STATE = 6;
const STATES: readonly LiveStatus[] = [1, 2, 3];

/** The other lives of every state, on air first: an empty list where the CMS cannot say (the page still shows). */
async function otherLives(content: ContentApi, id: number): Promise<OtherLive[]> {
  const pages = await Promise.all(STATES.map((status) => content.lives(status, 1, OTHERS_PER_STATE + 1).catch(() => ({ list: [] as Live[] }))));
  return pages
    .flatMap((page) => page.list.filter((other) => other.id !== id).slice(0, OTHERS_PER_STATE))
    .map(({ id: otherId, title, status, start_time }) => ({ id: otherId, title, status, start_time }));
}

export const loadLive: Loader<LiveData> = async ({ params, site, content }) => {
  const live = await entityInCategory(params, (id) => content.live(id));
  if (!live) return { kind: 'not-found' };
  const [playbacks, others] = await Promise.all([
    live.status === 3 ? content.livePlaybacks(live.id, 1, PLAYBACKS_SHOWN).then((page) => page.list) : [],
    otherLives(content, live.id),
  ]);
  return {
    kind: 'ok',
    data: { live, playbacks, others },
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
