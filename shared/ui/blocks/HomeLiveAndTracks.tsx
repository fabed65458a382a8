/**
 * Home's way into what is happening now: the lives on air or about to start (直播, each to its live page) and the
 * news-tracking reports updated last (新闻追踪, each to its timeline). A live page lists the other lives the same way.
 */
import { Link } from '../link';
import type { HomeNewsTrack } from '../../pages/home/route';
import type { Live } from '../../types/entities';
import { href } from '../../routes';
import { formatDateTime } from '../../time';

type ListedLive = Pick<Live, 'id' | 'title' | 'status' | 'start_time'>;

const STATUS_CLASS = { 1: 'on-air', 2: 'upcoming', 3: 'ended' } as const;

function liveStatus(live: ListedLive): string {
  if (live.status === 1) return '直播中';
  if (live.status === 2) return live.start_time === null ? '预告' : `${formatDateTime(live.start_time).slice(5)} 开始`;
  return '回放';
}

/** Lives with their state, each a link to its page: home's 直播, a live page's 更多直播. */
export function LiveList({ title, titleId, lives }: { title: string; titleId: string; lives: readonly ListedLive[] }) {
  if (lives.length === 0) return null;
  return (
    <section className="side-block home-lives" aria-labelledby={titleId}>
      <h2 id={titleId} className="block-title">
        {title}
      </h2>
      <ul className="home-lives__list">
        {lives.map((live) => (
          <li key={live.id} className="home-lives__item">
            <Link to={href.live(live.id)} className="home-lives__link">
              <span className={`home-lives__status home-lives__status--${STATUS_CLASS[live.status]}`}>{liveStatus(live)}</span>
              <span className="home-lives__title">{live.title}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function HomeLives({ lives }: { lives: readonly ListedLive[] }) {
  return <LiveList title="直播" titleId="home-lives-title" lives={lives} />;
}

export function HomeNewsTracks({ tracks }: { tracks: readonly HomeNewsTrack[] }) {
  if (tracks.length === 0) return null;
  return (
    <section className="side-block home-tracks" aria-labelledby="home-tracks-title">
      <h2 id="home-tracks-title" className="block-title">
        新闻追踪
      </h2>
      <ul className="home-tracks__list">
        {tracks.map((track) => (
          <li key={track.id} className="home-tracks__item">
            <Link to={href.newsTrack(track.id)}>{track.title}</Link>
            <span className="home-tracks__meta">
              {track.ongoing ? '持续更新中' : '报道已完结'} · {track.updates}篇
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
