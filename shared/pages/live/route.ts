/** /liveStreamDetail/{id} and /videoLive/{catid?}/{id}: a live broadcast — the stream while on air, the start time before, recordings after. */
import type { Live, LivePlayback } from '../../types/entities';
import { definePage, route, withId } from '../define';

export interface LiveData {
  live: Live;
  playbacks: LivePlayback[];
}

export default definePage<LiveData>()('live', [
  withId('liveStreamDetail'),
  route('videoLive', 'videoLive-catid-id', '/videoLive/:catid/:id', { catid: 'id', id: 'id' }),
  route('videoLive-id', 'videoLive-id', '/videoLive/:id', { id: 'id' }),
]);
