/** One video: the player, its details (and a collect button), and more from the same 视刻 category. */
import { Link } from '../../ui/link';
import type { VideoData } from './route';
import { href } from '../../routes';
import { ArticleMarkButtons } from '../../ui/blocks/InteractionButton';
import { VideoGrid } from '../../ui/blocks/VideoGrid';
import { DateTime } from '../../ui/blocks/DateTime';
import { VideoPlayer } from '../../ui/blocks/VideoPlayer';

export default function VideoPage({ data }: { data: VideoData }) {
  const { video, related } = data;
  return (
    <article className="video-page" aria-labelledby="video-title">
      <VideoPlayer src={video.hls_url} poster={video.cover} title={video.title} />
      <h1 id="video-title" className="page-title">
        {video.title}
      </h1>
      <p className="article__meta">
        <DateTime unixSeconds={video.adddate} />
        {video.source && <span>来源：{video.source}</span>}
        <span>{video.views} 次播放</span>
      </p>
      <div className="video-page__actions">
        <ArticleMarkButtons catid={video.catid} id={video.id} collectKind="collection_video" withLike={false} className="action-button" />
      </div>
      {video.description && <p className="video-page__description">{video.description}</p>}
      {video.albums.length > 0 && (
        <p className="video-page__albums">
          收录于专辑：
          {video.albums.map((album) => (
            <Link key={album.id} to={`${href.videoAlbum(album.id)}?v=${video.id}`} className="video-page__album">
              《{album.title}》
            </Link>
          ))}
        </p>
      )}
      {related.length > 0 && (
        <section aria-labelledby="related-title">
          <h2 id="related-title" className="block-title">
            相关视频
          </h2>
          <VideoGrid videos={related} />
        </section>
      )}
    </article>
  );
}
