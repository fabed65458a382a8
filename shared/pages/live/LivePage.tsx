/** A live broadcast: the stream while on air, the start time while upcoming, the recordings once ended; then the other lives. */
import type { LiveData } from './route';
import { DateTime } from '../../ui/blocks/DateTime';
import { VideoPlayer } from '../../ui/blocks/VideoPlayer';
import { SlotImage } from '../../ui/blocks/SlotImage';
import { LiveList } from '../../ui/blocks/HomeLiveAndTracks';

const STATUS_TEXT = { 1: '直播中', 2: '即将开始', 3: '已结束' } as const;

export default function LivePage({ data }: { data: LiveData }) {
  const { live, playbacks, others } = data;
  const [firstPlayback] = playbacks;
  return (
    <>
      <article className="live" aria-labelledby="live-title">
        <p className={`live__status live__status--${live.status}`}>{STATUS_TEXT[live.status]}</p>
        <h1 id="live-title" className="page-title">
          {live.title}
        </h1>
        {live.status === 1 && live.hls_url && <VideoPlayer src={live.hls_url} poster={live.cover} title={live.title} />}
        {live.status === 2 && (
          <figure className="player">
            <SlotImage src={live.cover} slot="mainColumn" width={960} height={540} />
            {live.start_time !== null && (
              <figcaption>
                开播时间：
                <DateTime unixSeconds={live.start_time} />
              </figcaption>
            )}
          </figure>
        )}
        {live.status === 3 && firstPlayback && <VideoPlayer src={firstPlayback.hls_url} poster={firstPlayback.cover} title={firstPlayback.title} />}
        <p className="article__meta">
          <DateTime unixSeconds={live.start_time} />
          {live.views > 0 && <span>{live.views} 人观看</span>}
        </p>
        {live.description && <p className="video-page__description">{live.description}</p>}
        {playbacks.length > 1 && (
          <section aria-labelledby="playback-title">
            <h2 id="playback-title" className="block-title">
              回放
            </h2>
            <ul className="article-list">
              {playbacks.map((playback) => (
                <li key={playback.id}>
                  <span>{playback.title}</span>
                  <DateTime unixSeconds={playback.adddate} />
                </li>
              ))}
            </ul>
          </section>
        )}
      </article>
      <LiveList title="更多直播" titleId="other-lives-title" lives={others} />
    </>
  );
}
