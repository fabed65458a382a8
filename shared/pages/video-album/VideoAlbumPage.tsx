/** A video album: the chosen video playing (with a collect button), the album's videos as a playlist (?v= picks one). */
import type { VideoAlbumData } from './route';
import { ArticleMarkButtons } from '../../ui/blocks/InteractionButton';
import { VideoGrid } from '../../ui/blocks/VideoGrid';
import { VideoPlayer } from '../../ui/blocks/VideoPlayer';

export default function VideoAlbumPage({ data }: { data: VideoAlbumData }) {
  const { album, current } = data;
  return (
    <article className="video-page" aria-labelledby="album-title">
      <h1 id="album-title" className="page-title">
        {album.title}
      </h1>
      <VideoPlayer src={current.hls_url} poster={current.cover} title={current.title} />
      <h2 className="video-page__current">{current.title}</h2>
      <div className="video-page__actions">
        <ArticleMarkButtons catid={current.catid} id={current.id} collectKind="collection_video" withLike={false} className="action-button" />
      </div>
      {album.description && <p className="video-page__description">{album.description}</p>}
      <VideoGrid videos={album.videos} linkFor={(video) => `/videoAlbum/${album.id}?v=${video.id}`} />
    </article>
  );
}
