/** A video album: the chosen video playing, the album's videos as a playlist (?v= picks one). */
import type { VideoAlbumData } from '../../shared/loaders/media';
import { VideoGrid } from '../blocks/VideoGrid';
import { VideoPlayer } from '../blocks/VideoPlayer';

export default function VideoAlbumPage({ data }: { data: VideoAlbumData }) {
  const { album, current } = data;
  return (
    <article className="video-page" aria-labelledby="album-title">
      <h1 id="album-title" className="page-title">
        {album.title}
      </h1>
      <VideoPlayer src={current.hls_url} poster={current.cover} title={current.title} />
      <h2 className="video-page__current">{current.title}</h2>
      {album.description && <p className="video-page__description">{album.description}</p>}
      <VideoGrid videos={album.videos} linkFor={(video) => `/videoAlbum/${album.id}?v=${video.id}`} />
    </article>
  );
}
