/** Video thumbnails with duration, each linking to its video page. */
import { Link } from '../link';
import { href } from '../../routes';
import type { Video } from '../../types/entities';
import { SlotImage } from './SlotImage';

function duration(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** What a card shows: any video-like item (a video, a collected video) will do. */
export type VideoCard = Pick<Video, 'id' | 'catid' | 'title' | 'cover' | 'duration'>;

export function VideoGrid<V extends VideoCard>({ videos, linkFor }: { videos: readonly V[]; linkFor?: (video: V) => string }) {
  return (
    <ul className="video-grid">
      {videos.map((video) => (
        <li key={video.id} className="video-card">
          <Link to={linkFor ? linkFor(video) : href.video(video.catid, video.id)}>
            <span className="video-card__cover">
              <SlotImage src={video.cover} slot="card" width={320} height={180} lazy />
              <span className="video-card__duration">{duration(video.duration)}</span>
            </span>
            <span className="video-card__title">{video.title}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
