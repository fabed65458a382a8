/** /liveStreamDetail/{id} and /videoLive/{catid?}/{id}: a live broadcast — the stream while on air, the start time before, recordings after. */
import type { Live, LivePlayback } from '../../types/entities';
import { definePage, route, withId } from '../define';

/** Another live as the page lists it: on air, upcoming or ended, each a link to its own page. */
export type OtherLive = Pick<Live, 'id' | 'title' | 'status' | 'start_time'>;

export interface LiveData {
  live: Live;
  playbacks: LivePlayback[];
  /** The other lives of each state (更多直播): the way to an upcoming or ended live, which home does not list. */
  others: OtherLive[];
}

export default definePage<LiveData>()('live', [
  withId('liveStreamDetail'),
  route('videoLive', 'videoLive-catid-id', '/videoLive/:catid/:id', { catid: 'id', id: 'id' }),
  route('videoLive-id', 'videoLive-id', '/videoLive/:id', { id: 'id' }),
]);
