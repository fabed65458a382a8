/** /videoAlbum/{id}?v={video}: a video album, playing one of its videos. */
import type { Video, VideoAlbum } from '../../types/entities';
import { definePage, withId } from '../define';

export interface VideoAlbumData {
  album: VideoAlbum;
  /** The video playing: ?v= when it belongs to the album, else the first. */
  current: Video;
}

export default definePage<VideoAlbumData>()('videoAlbum', [withId('videoAlbum', { query: ['v'] })]);
