import { Parser } from 'm3u8-parser';
import type {
  RawArticleDetail,
  RawLive,
  RawLivePlayback,
  RawPagedList,
  RawShikeCategory,
  RawShikeCategoryItems,
  RawVideo,
  RawVideoAlbum,
} from '../../../server/upstream/wire';
import { createReferenceApi, type ReferenceApi } from '../../../scripts/reference-api/app';
import { BAD_PARAMS, getEnvelope, getRaw, HLS_URL, localPath, MEDIA_URL, PUBLIC } from './client';
import { NOW, SEED } from './fixtures';

let api: ReferenceApi;

beforeAll(() => {
  api = createReferenceApi({ seed: SEED, now: NOW, publicUrl: PUBLIC });
});

function get<T>(path: string) {
  return getEnvelope<T>(api, path);
}

/** Top-level ISO BMFF boxes as [type, size]. */
function topBoxes(bytes: Buffer): Array<[string, number]> {
  const boxes: Array<[string, number]> = [];
  for (let offset = 0; offset + 8 <= bytes.length;) {
    const size = bytes.readUInt32BE(offset);
    boxes.push([bytes.toString('ascii', offset + 4, offset + 8), size]);
    if (size < 8) break;
    offset += size;
  }
  return boxes;
}

describe('视刻 (shike)', () => {
  it('lists the categories, including the fixed link’s 2839', async () => {
    const body = await get<RawShikeCategory[]>('/api/video_album/shike_video_category');
    expect(body.data.map((category) => category.id)).toContain(2839);
    for (const category of body.data) {
      expect(category.cover).toMatch(MEDIA_URL);
      expect(category.video_count).toBeGreaterThanOrEqual(10);
    }
  });

  it('pages a category’s videos, and answers 40004 / 40000', async () => {
    const body = await get<RawShikeCategoryItems>('/api/video_album/shike_video_category_item?id=2839');
    expect(body.data.category.name).toBe('视刻');
    expect(body.data).toMatchObject({ page: 1, page_size: 12 });
    expect(body.data.total).toBe(body.data.category.video_count);
    expect(body.data.list.every((video) => video.category_id === 2839)).toBe(true);
    const dates = body.data.list.map((video) => video.adddate!);
    expect(dates).toEqual([...dates].sort((left, right) => right - left));
    expect((await get<RawShikeCategoryItems>('/api/video_album/shike_video_category_item?id=2839&page=9')).data.list).toEqual([]);
    expect(await get('/api/video_album/shike_video_category_item?id=1')).toEqual({ code: 40004, msg: '视刻分类不存在', data: null });
    expect(await get('/api/video_album/shike_video_category_item')).toEqual(BAD_PARAMS);
  });

  it('answers one video, the same through shike_video_item and /api/video/detail', async () => {
    const video = api.dataset.videos[0];
    const item = await get<RawVideo>(`/api/video_album/shike_video_item?id=${video?.id}`);
    expect(item.data).toEqual((await get<RawVideo>(`/api/video/detail?id=${video?.id}`)).data);
    expect(item.data).toMatchObject({ id: video?.id, title: video?.title });
    expect(item.data.cover).toMatch(MEDIA_URL);
    expect(item.data.hls_url).toMatch(HLS_URL);
    expect(item.data.title.length).toBeGreaterThanOrEqual(8);
    expect(item.data.description.length).toBeGreaterThanOrEqual(40);
    expect(Object.keys(item.data)).not.toContain('hlsKey');
    expect(await get('/api/video/detail?id=1')).toEqual({ code: 40004, msg: '视频不存在', data: null });
    expect(await get('/api/video_album/shike_video_item?id=x')).toEqual(BAD_PARAMS);
  });
});

describe('GET /api/{product}/detail', () => {
  it('answers an album with its videos in order', async () => {
    const album = api.dataset.albums[0];
    const body = await get<RawVideoAlbum>(`/api/video_album/detail?id=${album?.id}`);
    expect(body.data.videos.map((video) => video.id)).toEqual(album?.videoIds);
    expect(body.data.videos.length).toBeGreaterThanOrEqual(4);
    expect(await get('/api/video_album/detail?id=1')).toEqual({ code: 40004, msg: '视频专辑不存在', data: null });
  });

  it('answers an article like /show does, and a live like /api/live/info', async () => {
    const article = api.dataset.articles[100];
    const detail = await get<RawArticleDetail>(`/api/article/detail?id=${article?.id}`);
    expect(detail.data).toEqual((await get<RawArticleDetail>(`/show/${article?.catid}-${article?.id}.html`)).data);
    expect(await get('/api/article/detail?id=1')).toEqual({ code: 40004, msg: '文章不存在', data: null });
    const live = api.dataset.lives[0];
    expect((await get<RawLive>(`/api/live/detail?id=${live?.id}`)).data).toEqual((await get<RawLive>(`/api/live/info?id=${live?.id}`)).data);
    expect((await getRaw(api, '/api/podcast/detail?id=1')).status).toBe(404);
  });
});

describe('lives', () => {
  it('lists each state, with a stream only while on air', async () => {
    let total = 0;
    for (const showType of [1, 2, 3] as const) {
      const body = await get<RawPagedList<RawLive>>(`/api/live/list?show_type=${showType}&page_size=50`);
      expect(body.data.list.length).toBeGreaterThanOrEqual(4);
      total += body.data.total;
      for (const live of body.data.list) {
        expect(live.status).toBe(showType);
        expect(live.cover).toMatch(MEDIA_URL);
        if (showType === 1) {
          expect(live.hls_url).toMatch(HLS_URL);
          expect(live.start_time).toBeLessThanOrEqual(NOW);
          expect(live.end_time).toBeGreaterThan(NOW);
        } else expect(live.hls_url).toBe('');
        if (showType === 2) expect(live.start_time).toBeGreaterThan(NOW);
        if (showType === 3) expect(live.end_time).toBeLessThan(NOW);
      }
    }
    expect(total).toBe(api.dataset.lives.length);
    expect(total).toBeGreaterThanOrEqual(12);
    expect(await get('/api/live/list')).toEqual(BAD_PARAMS);
    expect(await get('/api/live/list?show_type=4')).toEqual(BAD_PARAMS);
    expect(await get('/api/live/info?id=1')).toEqual({ code: 40004, msg: '直播不存在', data: null });
  });

  it('lists the recordings of an ended live, none for a live on air, all without an id', async () => {
    const ended = api.dataset.lives.find((live) => live.status === 3);
    const onAir = api.dataset.lives.find((live) => live.status === 1);
    const body = await get<RawPagedList<RawLivePlayback>>(`/api/live/playback_list?id=${ended?.id}`);
    expect(body.data.total).toBeGreaterThanOrEqual(1);
    for (const playback of body.data.list) {
      expect(playback.live_id).toBe(ended?.id);
      expect(playback.hls_url).toMatch(HLS_URL);
      expect(playback.adddate).toBeGreaterThan(ended?.end_time ?? 0);
    }
    expect((await get<RawPagedList<RawLivePlayback>>(`/api/live/playback_list?id=${onAir?.id}`)).data.total).toBe(0);
    expect((await get<RawPagedList<RawLivePlayback>>('/api/live/playback_list?page_size=50')).data.total).toBe(api.dataset.playbacks.length);
    expect(await get('/api/live/playback_list?id=1')).toEqual({ code: 40004, msg: '直播不存在', data: null });
  });
});

describe('HLS test stream', () => {
  it('serves a well-formed VOD playlist whose init and segments answer 200 as fMP4', async () => {
    const video = (await get<RawVideo>(`/api/video/detail?id=${api.dataset.videos[0]?.id}`)).data;
    const playlist = await getRaw(api, localPath(video.hls_url));
    expect(playlist.status).toBe(200);
    expect(playlist.contentType).toBe('application/vnd.apple.mpegurl');
    // hls.js loads with XHR from the portal's origin.
    expect(playlist.cors).toBe('*');
    const parser = new Parser();
    parser.push(playlist.body.toString('utf8'));
    parser.end();
    const manifest = parser.manifest;
    expect(manifest).toMatchObject({ playlistType: 'VOD', endList: true, targetDuration: 2, mediaSequence: 0 });
    expect(manifest.segments.length).toBeGreaterThanOrEqual(2);
    expect(manifest.segments.length).toBeLessThanOrEqual(3);
    expect(manifest.segments.reduce((sum, segment) => sum + segment.duration, 0)).toBe(video.duration);
    const base = new URL(video.hls_url);
    const init = await getRaw(api, localPath(new URL(manifest.segments[0]?.map?.uri ?? '', base).href));
    expect(init).toMatchObject({ status: 200, contentType: 'video/mp4' });
    expect(topBoxes(init.body).map(([type]) => type)).toEqual(['ftyp', 'moov']);
    expect(init.body.includes(Buffer.from('mvex'))).toBe(true);
    expect(init.body.includes(Buffer.from('avcC'))).toBe(true);
    for (const segment of manifest.segments) {
      const media = await getRaw(api, localPath(new URL(segment.uri, base).href));
      expect(media).toMatchObject({ status: 200, contentType: 'video/mp4', cors: '*' });
      const boxes = topBoxes(media.body);
      expect(boxes.map(([type]) => type)).toEqual(['moof', 'mdat']);
      expect(boxes.reduce((sum, [, size]) => sum + size, 0)).toBe(media.body.length);
    }
  });

  it('serves streams of lives on air and recordings, and 404s for anything else', async () => {
    const onAir = api.dataset.lives.find((live) => live.status === 1);
    const upcoming = api.dataset.lives.find((live) => live.status === 2);
    const recording = api.dataset.playbacks[0];
    expect((await getRaw(api, onAir?.hls_url ?? '')).status).toBe(200);
    expect((await getRaw(api, recording?.hls_url ?? '')).status).toBe(200);
    expect((await getRaw(api, `/media/hls/${upcoming?.hlsKey}/index.m3u8`)).status).toBe(404);
    expect((await getRaw(api, '/media/hls/v1/index.m3u8')).status).toBe(404);
    expect((await getRaw(api, `/media/hls/${api.dataset.videos[0]?.hlsKey}/seg3.m4s`)).status).toBe(404);
    expect((await getRaw(api, `/media/hls/${api.dataset.videos[0]?.hlsKey}/other.ts`)).status).toBe(404);
  });

  it('is deterministic and not counted as an API call', async () => {
    api.control.reset();
    const key = api.dataset.videos[1]?.hlsKey;
    const first = await getRaw(api, `/media/hls/${key}/seg1.m4s`);
    const again = await getRaw(api, `/media/hls/${key}/seg1.m4s`);
    expect(first.body.equals(again.body)).toBe(true);
    expect(api.control.stats().total).toBe(0);
  });
});
