/**
 * Live streams in the three states of docs/product.md §7 (1 live now, 2 upcoming, 3 ended) and the recordings of ended ones.
 * States are fixed against the dataset's `now`, so a run is deterministic; only lives on air carry a stream.
 */
import type { LiveStatus, RawLive, RawLivePlayback } from '../../server/upstream/wire';
import { DAY_SECONDS } from './articles';
import { hlsPath, streamSeconds } from './hls';
import { imagePath } from './media';
import type { Rng } from './random';
import { composeDescription } from './text';
import type { ChannelKey } from './words';

const LIVE_CATID = 2742;
const HOUR = 3600;

/** [title, channel]; the first four are on air, the next four upcoming, the rest ended. */
const LIVES: ReadonlyArray<readonly [string, ChannelKey, LiveStatus]> = [
  ['直播｜2026年高校毕业生就业服务月启动仪式', 'jiaoyu', 1],
  ['直播｜青年科学家对话：走近中国空间站', 'keji', 1],
  ['直播｜非遗传承人带你逛庙会', 'wenhua', 1],
  ['直播｜全国青少年冰雪运动会开幕式', 'tiyu', 1],
  ['预告｜新时代青年说·第十二期', 'qingnian', 2],
  ['预告｜国务院新闻办公室新闻发布会', 'shizheng', 2],
  ['预告｜“西部计划”志愿者出征仪式', 'qingnian', 2],
  ['预告｜大学生创新创业大赛总决赛', 'jiaoyu', 2],
  ['回看｜长江保护青年行动启动', 'shehui', 3],
  ['回看｜2025年度十大科技新闻发布', 'keji', 3],
  ['回看｜全民阅读大会主论坛', 'wenhua', 3],
  ['回看｜全运会男子马拉松比赛', 'tiyu', 3],
  ['回看｜乡村振兴青年人才对接会', 'sannong', 3],
  ['回看｜网络安全宣传周青少年日活动', 'shehui', 3],
];

export interface LiveRecord extends RawLive {
  hlsKey: string;
}

export interface PlaybackRecord extends RawLivePlayback {
  hlsKey: string;
}

export interface LiveData {
  /** Ordered by id. */
  lives: LiveRecord[];
  /** Newest first. */
  playbacks: PlaybackRecord[];
}

function schedule(rng: Rng, status: LiveStatus, now: number): { start: number; end: number } {
  if (status === 1) {
    const start = now - rng.int(HOUR / 2, 3 * HOUR);
    return { start, end: now + rng.int(HOUR, 3 * HOUR) };
  }
  if (status === 2) {
    const start = now + rng.int(3 * HOUR, 10 * DAY_SECONDS);
    return { start, end: start + rng.int(1, 3) * HOUR };
  }
  const start = now - rng.int(DAY_SECONDS, 60 * DAY_SECONDS);
  return { start, end: start + rng.int(1, 3) * HOUR };
}

export function generateLives(rng: Rng, now: number): LiveData {
  const lives: LiveRecord[] = [];
  const playbacks: PlaybackRecord[] = [];
  let playbackId = 901;
  LIVES.forEach(([title, channel, status], index) => {
    const id = 801 + index;
    const hlsKey = `l${id}`;
    const { start, end } = schedule(rng, status, now);
    lives.push({
      id,
      catid: LIVE_CATID,
      title,
      cover: imagePath(hlsKey, 1280, 720),
      status,
      start_time: start,
      end_time: end,
      hls_url: status === 1 ? hlsPath(hlsKey) : '',
      description: composeDescription(rng, { channel }),
      views: status === 2 ? 0 : Math.floor(2000 * 200 ** rng.next()),
      hlsKey,
    });
    if (status !== 3) return;
    // A long event is cut into parts, as broadcasters publish them.
    const parts = rng.int(1, 3);
    for (let part = 1; part <= parts; part += 1) {
      const key = `p${playbackId}`;
      playbacks.push({
        id: playbackId,
        live_id: id,
        title: parts > 1 ? `${title.replace(/^回看｜/, '')}（${part}）` : title.replace(/^回看｜/, ''),
        cover: imagePath(key, 1280, 720),
        hls_url: hlsPath(key),
        duration: streamSeconds(key),
        adddate: end + part * 600,
        hlsKey: key,
      });
      playbackId += 1;
    }
  });
  playbacks.sort((left, right) => (right.adddate ?? 0) - (left.adddate ?? 0) || right.id - left.id);
  return { lives, playbacks };
}

export function presentLive(live: LiveRecord, media: (path: string) => string): RawLive {
  const { hlsKey: _key, ...wire } = live;
  return { ...wire, cover: media(wire.cover), hls_url: wire.hls_url === '' ? '' : media(wire.hls_url) };
}

export function presentPlayback(playback: PlaybackRecord, media: (path: string) => string): RawLivePlayback {
  const { hlsKey: _key, ...wire } = playback;
  return { ...wire, cover: media(wire.cover), hls_url: media(wire.hls_url) };
}
