/**
 * 视刻 short videos: categories, videos and albums. Every video plays the generated HLS stream of ./hls.ts under
 * its own key, and its duration is that stream's real length, so players, JSON-LD and lists agree.
 */
import type { RawShikeCategory, RawVideo, RawVideoAlbum } from '../../server/upstream/wire';
import { DAY_SECONDS } from './articles';
import { hlsPath, streamSeconds } from './hls';
import { imagePath } from './media';
import type { Rng } from './random';
import { composeDescription, composeHeadline } from './text';
import type { ChannelKey } from './words';

/** [id, name, channel, portal catid]. 2839 and 2741 are the menu's template-6 categories (/shike/2839 is a fixed link). */
const SHIKE_CATEGORIES: ReadonlyArray<readonly [number, string, ChannelKey, number]> = [
  [2839, '视刻', 'shehui', 2839],
  [2741, '微视频', 'wenhua', 2741],
  [2844, '青春Vlog', 'qingnian', 2740],
  [2845, '新闻现场', 'shizheng', 2740],
  [2846, '科技前沿', 'keji', 2740],
  [2847, '非遗之美', 'wenhua', 2740],
];
const VIDEOS_PER_CATEGORY = 12;
const FIRST_VIDEO_ID = 5001;
const VIDEO_SPAN_SECONDS = 180 * DAY_SECONDS;

const CATEGORY_BLURBS: Readonly<Record<string, string>> = {
  视刻: '用镜头记录新闻现场，一分钟看懂身边事。',
  微视频: '短小精悍的微视频，讲述中国故事里的青春面孔。',
  青春Vlog: '年轻人自己的视频日记，分享学习、工作与生活。',
  新闻现场: '第一时间直击新闻现场，带你看见事件全貌。',
  科技前沿: '聚焦前沿科技与大国重器，感受创新的力量。',
  非遗之美: '走近非遗传承人，看传统技艺焕发新生。',
};

const ALBUM_TITLES: readonly string[] = [
  '新时代青年说',
  '大国工匠',
  '乡村振兴青年行',
  '非遗里的中国',
  '青春在一线',
  '城市微光',
  '校园里的新鲜事',
  '山河锦绣',
  '科技改变生活',
  '我的家乡我的年',
];

export interface VideoRecord extends Omit<RawVideo, 'albums'> {
  hlsKey: string;
}

export interface AlbumRecord extends Omit<RawVideoAlbum, 'videos'> {
  videoIds: number[];
}

export interface VideoData {
  shikeCategories: RawShikeCategory[];
  /** Newest first. */
  videos: VideoRecord[];
  albums: AlbumRecord[];
}

function makeVideo(rng: Rng, id: number, categoryId: number, channel: ChannelKey, catid: number, now: number): VideoRecord {
  const hlsKey = `v${id}`;
  return {
    id,
    catid,
    category_id: categoryId,
    title: composeHeadline(rng, { channel, prefix: '【视频】' }).title,
    cover: imagePath(hlsKey, 640, 360),
    hls_url: hlsPath(hlsKey),
    duration: streamSeconds(hlsKey),
    description: composeDescription(rng, { channel }),
    adddate: now - rng.int(600, VIDEO_SPAN_SECONDS),
    views: Math.floor(300 * 800 ** rng.next()),
    source: rng.pick(['青年新闻网', '中国青年报', '中青网视频', '青年新闻网视频部']),
    hlsKey,
  };
}

export function generateVideos(rng: Rng, now: number): VideoData {
  const videos: VideoRecord[] = [];
  let id = FIRST_VIDEO_ID;
  for (const [categoryId, , channel, catid] of SHIKE_CATEGORIES) {
    for (let index = 0; index < VIDEOS_PER_CATEGORY; index += 1) {
      videos.push(makeVideo(rng.fork(`video-${id}`), id, categoryId, channel, catid, now));
      id += 1;
    }
  }
  videos.sort((left, right) => (right.adddate ?? 0) - (left.adddate ?? 0) || right.id - left.id);
  const shikeCategories = SHIKE_CATEGORIES.map(([categoryId, name]) => ({
    id: categoryId,
    name,
    cover: imagePath(`sk${categoryId}`, 640, 360),
    description: CATEGORY_BLURBS[name] ?? '',
    video_count: videos.filter((video) => video.category_id === categoryId).length,
  }));
  const albums = ALBUM_TITLES.map((title, index) => {
    const albumId = 601 + index;
    const members = rng.sample(videos, rng.int(4, 8)).sort((left, right) => (left.adddate ?? 0) - (right.adddate ?? 0));
    const last = members[members.length - 1];
    return {
      id: albumId,
      title,
      cover: imagePath(`va${albumId}`, 640, 360),
      description: `「${title}」系列视频，共${members.length}集，${rng.pick(Object.values(CATEGORY_BLURBS))}`,
      adddate: last ? last.adddate : now,
      videoIds: members.map((video) => video.id),
    };
  });
  return { shikeCategories, videos, albums };
}

/** A video's albums (每集所属专辑), as the CMS lists them beside the video: id and title. */
export type AlbumsOfVideo = ReadonlyMap<number, ReadonlyArray<{ id: number; title: string }>>;

export function albumsOfVideos(albums: readonly AlbumRecord[]): AlbumsOfVideo {
  const index = new Map<number, Array<{ id: number; title: string }>>();
  for (const album of albums) {
    for (const videoId of album.videoIds) {
      const list = index.get(videoId) ?? [];
      list.push({ id: album.id, title: album.title });
      index.set(videoId, list);
    }
  }
  return index;
}

export function presentVideo(video: VideoRecord, media: (path: string) => string, albumsOf?: AlbumsOfVideo): RawVideo {
  const { hlsKey: _key, ...wire } = video;
  return { ...wire, cover: media(wire.cover), hls_url: media(wire.hls_url), albums: [...(albumsOf?.get(video.id) ?? [])] };
}

export function presentShikeCategory(category: RawShikeCategory, media: (path: string) => string): RawShikeCategory {
  return { ...category, cover: media(category.cover) };
}
