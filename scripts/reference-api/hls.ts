/**
 * A short HLS test stream per video, live and recording, generated in code like the MP4 of ./mp4.ts: a VOD media
 * playlist, one fMP4 (CMAF-style) init segment and 2–3 two-second media segments. fMP4 rather than MPEG-TS because
 * Chromium's Media Source Extensions (what hls.js feeds) take ISO BMFF natively, so no transmuxing is involved, and
 * because it reuses the H.264 bitstream writer that the video ads already prove playable.
 */
import { hashString } from './random';
import {
  ascii,
  box,
  fullBox,
  idrSlice,
  MB,
  pictureParameterSet,
  sampleDescription,
  sequenceParameterSet,
  skippedPSlice,
  TIMESCALE,
  u16,
  u32,
  UNITY_MATRIX,
  zeros,
} from './mp4';

export const HLS_PREFIX = '/media/hls/';
export const PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
export const SEGMENT_TYPE = 'video/mp4';

/** 320×176 is 20×11 macroblocks: big enough to look like a picture, small enough to generate in milliseconds. */
const WIDTH = 320;
const HEIGHT = 176;
const FPS = 10;
export const SEGMENT_SECONDS = 2;
const FRAMES_PER_SEGMENT = FPS * SEGMENT_SECONDS;
const FRAME_DURATION = TIMESCALE / FPS;
const KEY_PATTERN = /^[a-z][a-z0-9]{0,39}$/;
/** trun sample_flags: a sync sample depends on nothing; the others depend on it and are not sync samples. */
const SYNC_SAMPLE_FLAGS = 0x02000000;
const NON_SYNC_SAMPLE_FLAGS = 0x01010000;

/** Stream keys: 'v5001' a video, 'l801' a live, 'p901' a recording; the dataset decides which exist. */
export function hlsPath(key: string): string {
  if (!KEY_PATTERN.test(key)) throw new Error(`bad HLS key ${key}`);
  return `${HLS_PREFIX}${key}/index.m3u8`;
}

/** 2 or 3 segments, fixed per key, so durations in the data can match the stream exactly. */
export function segmentCount(key: string): number {
  return 2 + (hashString(`hls-${key}`) % 2);
}

export function streamSeconds(key: string): number {
  return segmentCount(key) * SEGMENT_SECONDS;
}

export type HlsRequest = { key: string; file: 'playlist' } | { key: string; file: 'init' } | { key: string; file: 'segment'; index: number };

export function parseHlsPath(pathname: string): HlsRequest | null {
  if (!pathname.startsWith(HLS_PREFIX)) return null;
  const match = /^([a-z][a-z0-9]{0,39})\/(index\.m3u8|init\.mp4|seg(\d{1,3})\.m4s)$/.exec(pathname.slice(HLS_PREFIX.length));
  if (!match) return null;
  const key = match[1] ?? '';
  if (match[2] === 'index.m3u8') return { key, file: 'playlist' };
  if (match[2] === 'init.mp4') return { key, file: 'init' };
  const index = Number(match[3]);
  return index < segmentCount(key) ? { key, file: 'segment', index } : null;
}

export function playlist(key: string): string {
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    `#EXT-X-TARGETDURATION:${SEGMENT_SECONDS}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    '#EXT-X-MAP:URI="init.mp4"',
  ];
  for (let index = 0; index < segmentCount(key); index += 1) lines.push(`#EXTINF:${SEGMENT_SECONDS.toFixed(3)},`, `seg${index}.m4s`);
  lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

const widthMbs = WIDTH / MB;
const heightMbs = HEIGHT / MB;
const sps = sequenceParameterSet(widthMbs, heightMbs);
const pps = pictureParameterSet();

let initCache: Buffer | null = null;

/** ftyp + moov with empty sample tables and an mvex: every sample lives in the fragments. */
export function initSegment(): Buffer {
  if (initCache) return initCache;
  const ftyp = box('ftyp', ascii('iso6'), u32(0), ascii('iso6cmfcavc1mp41'));
  const mvhd = fullBox('mvhd', 0, 0, u32(0), u32(0), u32(TIMESCALE), u32(0), u32(0x00010000), u16(0x0100), zeros(10), UNITY_MATRIX, zeros(24), u32(2));
  const tkhd = fullBox(
    'tkhd',
    0,
    3,
    u32(0),
    u32(0),
    u32(1),
    u32(0),
    u32(0),
    zeros(8),
    u16(0),
    u16(0),
    u16(0),
    u16(0),
    UNITY_MATRIX,
    u32(WIDTH << 16),
    u32(HEIGHT << 16),
  );
  const mdhd = fullBox('mdhd', 0, 0, u32(0), u32(0), u32(TIMESCALE), u32(0), u16(0x55c4), u16(0));
  const hdlr = fullBox('hdlr', 0, 0, u32(0), ascii('vide'), zeros(12), ascii('VideoHandler'), [0]);
  const dinf = box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1)));
  const stbl = box(
    'stbl',
    sampleDescription({ width: WIDTH, height: HEIGHT, sps, pps }),
    fullBox('stts', 0, 0, u32(0)),
    fullBox('stsc', 0, 0, u32(0)),
    fullBox('stsz', 0, 0, u32(0), u32(0)),
    fullBox('stco', 0, 0, u32(0)),
  );
  const minf = box('minf', fullBox('vmhd', 0, 1, zeros(8)), dinf, stbl);
  const trex = fullBox('trex', 0, 0, u32(1), u32(1), u32(0), u32(0), u32(0));
  const moov = box('moov', mvhd, box('trak', tkhd, box('mdia', mdhd, hdlr, minf)), box('mvex', trex));
  initCache = Buffer.from([...ftyp, ...moov]);
  return initCache;
}

function moof(sequence: number, baseTime: number, sizes: readonly number[], dataOffset: number): number[] {
  const samples = sizes.flatMap((size, index) => [...u32(FRAME_DURATION), ...u32(size), ...u32(index === 0 ? SYNC_SAMPLE_FLAGS : NON_SYNC_SAMPLE_FLAGS)]);
  // trun flags: data-offset, sample-duration, sample-size and sample-flags present.
  const trun = fullBox('trun', 0, 0x000701, u32(sizes.length), u32(dataOffset), samples);
  // tfhd flag 0x020000 default-base-is-moof: data_offset counts from this moof, as CMAF requires.
  const tfhd = fullBox('tfhd', 0, 0x020000, u32(1));
  const tfdt = fullBox('tfdt', 1, 0, u32(Math.floor(baseTime / 2 ** 32)), u32(baseTime >>> 0));
  return box('moof', fullBox('mfhd', 0, 0, u32(sequence)), box('traf', tfhd, tfdt, trun));
}

const segmentCache = new Map<string, Buffer>();
const SEGMENT_CACHE_LIMIT = 96;

/**
 * One two-second fragment: an IDR picture then skipped P frames. Each segment's picture has its own colour so a
 * viewer (or a screenshot test) can see playback advance from one segment to the next.
 */
export function mediaSegment(key: string, index: number): Buffer {
  const cacheKey = `${key}/${index}`;
  const cached = segmentCache.get(cacheKey);
  if (cached) return cached;
  const tint = (hashString(`video-${key}`) + index * 85) % 256;
  const frames: Uint8Array[] = [idrSlice(widthMbs, heightMbs, tint, index % 65536)];
  for (let frame = 1; frame < FRAMES_PER_SEGMENT; frame += 1) frames.push(skippedPSlice(frame, widthMbs * heightMbs));
  const samples = frames.map((frame) => [...u32(frame.length), ...frame]);
  const sizes = samples.map((sample) => sample.length);
  const baseTime = index * FRAMES_PER_SEGMENT * FRAME_DURATION;
  // The moof's size does not depend on the offset's value, so one sizing pass gives the real offset.
  const dataOffset = moof(index + 1, baseTime, sizes, 0).length + 8;
  const bytes = Buffer.from([...moof(index + 1, baseTime, sizes, dataOffset), ...box('mdat', samples.flat())]);
  if (segmentCache.size >= SEGMENT_CACHE_LIMIT) segmentCache.clear();
  segmentCache.set(cacheKey, bytes);
  return bytes;
}
