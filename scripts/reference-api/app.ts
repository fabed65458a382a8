/**
 * The reference content API as a request handler: the dataset, the docs/product.md §7 routes, generated media and the
 * control plane. Request pipeline for API paths: count → failure rule → latency → route.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Accounts, type Catalog } from './accounts';
import { ControlState, DEFAULT_FAILURE_CODE, statsKey, type Control, type FailureRule, type LatencyRule } from './control';
import { CONTROL_PREFIX, handleControl } from './control-routes';
import { generateDataset, type Dataset } from './dataset';
import { BadBodyError, delay, json, JSON_TYPE, readBody, send, sendTruncated, type BodyFields, type Reply } from './http';
import { initSegment, mediaSegment, parseHlsPath, playlist, PLAYLIST_TYPE, SEGMENT_TYPE } from './hls';
import { atOneSize, MEDIA_CACHE_CONTROL, parseImagePath, parseVideoPath, referenceImagesOf, renderSvg, videoBytes, type ReferenceImages } from './media';
import { newspaperPageLabel } from './newspapers';
import { pictureJpeg } from './picture-catalog';
import { Presenter } from './present';
import { PREVIEW_HEADER, PREVIEW_HEADER_VALUE } from '../../server/preview/contract';
import { CODE_BAD_PARAMS, fail, findRoute, MSG, type RouteContext } from './routes';
import { presentVideo } from './videos';
import { WechatJsSdk } from './wechat-jssdk';

export type { Control, FailureMode, FailureRule, LatencyRule, Stats, ArticlePatch } from './control';
export type { Dataset } from './dataset';

/** Used until the server knows its port (server.ts sets the real one). */
export const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:3100';

export interface ReferenceApiOptions {
  seed?: number;
  /** Serve three misconfigured menu entries (see DatasetOptions.menuFaults). */
  menuFaults?: boolean;
  /** Unix seconds the dataset is generated against; defaults to the wall clock. */
  now?: number;
  /** Prefix of every media URL in responses, e.g. 'http://127.0.0.1:43121'. */
  publicUrl?: string;
  latency?: LatencyRule[];
  failures?: FailureRule[];
  /** Serve /__control over HTTP (default true). Off when the API listens beyond loopback (docker-compose). */
  controlPlane?: boolean;
  /** How pictures are served (./media.ts ReferenceImages); default: REFERENCE_IMAGES, else every size asked. */
  images?: ReferenceImages;
}

export interface ReferenceApi {
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  dataset: Dataset;
  control: Control;
  /** Users, tokens, likes and collections (kept in memory for the process's life). */
  accounts: Accounts;
  /** The simulated JS-SDK sharing (signature, verification, jweixin script). */
  jsSdk: WechatJsSdk;
}

const NOT_FOUND: Reply = json(404, { code: 404, msg: 'Not Found', data: null });

function imageLabel(dataset: Dataset, key: string): string {
  const article = /^a(\d+)/.exec(key);
  if (article) return dataset.articleById.get(Number(article[1]))?.catname ?? '青年新闻网';
  if (key.startsWith('ad')) return '广告';
  if (key.startsWith('tp')) return '专题';
  const author = /^av(\d+)$/.exec(key);
  if (author) return dataset.columnAuthors.find((entry) => entry.id === Number(author[1]))?.name.slice(0, 1) ?? '专栏';
  return mediaImageLabel(dataset, key);
}

/** Labels for the images of videos, lives, newspapers and the other discovery entities, by key prefix. */
function mediaImageLabel(dataset: Dataset, key: string): string {
  const page = newspaperPageLabel(dataset.newspapers, key);
  if (page) return page;
  if (key.startsWith('skin')) return '青年新闻网';
  const shike = /^sk(\d+)$/.exec(key);
  if (shike) return dataset.shikeCategories.find((category) => category.id === Number(shike[1]))?.name ?? '视刻';
  const prefixes: ReadonlyArray<readonly [RegExp, string]> = [
    [/^va\d/, '视频专辑'],
    [/^v\d/, '视频'],
    [/^l\d/, '直播'],
    [/^p\d/, '回看'],
    [/^sr\d/, '新闻追踪'],
    [/^bq\d/, '精品'],
  ];
  return prefixes.find(([pattern]) => pattern.test(key))?.[1] ?? '青年新闻网';
}

/** Playlist, init segment or media segment of a stream the dataset knows; anything else is a 404. */
function hlsReply(dataset: Dataset, path: string): Reply | null {
  const request = parseHlsPath(path);
  if (!request) return null;
  if (!dataset.hlsKeys.has(request.key)) return NOT_FOUND;
  // hls.js fetches playlists and segments with XHR, so a page on another origin (the portal) needs CORS; images
  // and <video src> do not, which is why only HLS carries the header.
  const headers = { 'Cache-Control': MEDIA_CACHE_CONTROL, 'Access-Control-Allow-Origin': '*' };
  if (request.file === 'playlist') return { kind: 'raw', status: 200, contentType: PLAYLIST_TYPE, body: playlist(request.key), headers };
  if (request.file === 'init') return { kind: 'raw', status: 200, contentType: SEGMENT_TYPE, body: initSegment(), headers };
  return { kind: 'raw', status: 200, contentType: SEGMENT_TYPE, body: mediaSegment(request.key, request.index), headers };
}

/** Single-range support, because Safari refuses to play video from servers that ignore Range. */
function videoReply(bytes: Buffer, range: string | undefined): Reply {
  const headers = { 'Cache-Control': MEDIA_CACHE_CONTROL, 'Accept-Ranges': 'bytes' };
  const match = range ? /^bytes=(\d*)-(\d*)$/.exec(range.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'raw', status: 200, contentType: 'video/mp4', body: bytes, headers };
  const size = bytes.length;
  const start = match[1] === '' ? Math.max(0, size - Number(match[2])) : Number(match[1]);
  const end = match[1] !== '' && match[2] !== '' ? Math.min(size - 1, Number(match[2])) : size - 1;
  if (start > end || start >= size) {
    return { kind: 'raw', status: 416, contentType: 'video/mp4', body: '', headers: { ...headers, 'Content-Range': `bytes */${size}` } };
  }
  return {
    kind: 'raw',
    status: 206,
    contentType: 'video/mp4',
    body: bytes.subarray(start, end + 1),
    headers: { ...headers, 'Content-Range': `bytes ${start}-${end}/${size}` },
  };
}

async function mediaReply(dataset: Dataset, path: string, range: string | undefined, images: ReferenceImages): Promise<Reply> {
  const image = parseImagePath(path);
  if (image?.format === 'jpg') {
    const body = await pictureJpeg(dataset, images === 'one-size' ? atOneSize(image) : image);
    return { kind: 'raw', status: 200, contentType: 'image/jpeg', body, headers: { 'Cache-Control': MEDIA_CACHE_CONTROL } };
  }
  if (image) {
    return {
      kind: 'raw',
      status: 200,
      contentType: 'image/svg+xml; charset=utf-8',
      body: renderSvg(image, imageLabel(dataset, image.key)),
      headers: { 'Cache-Control': MEDIA_CACHE_CONTROL },
    };
  }
  const hls = hlsReply(dataset, path);
  if (hls) return hls;
  const videoId = parseVideoPath(path);
  if (videoId !== null && dataset.videoAdIds.has(videoId)) return videoReply(videoBytes(videoId), range);
  return NOT_FOUND;
}

/** A CMS (or a proxy in front of it) sending the caller elsewhere: a body that would read as a success if followed. */
export const REDIRECT_BODY = { code: 0, msg: 'success', data: null };

function failureReply(rule: FailureRule): Reply {
  if (rule.mode === 'http500') return json(500, { code: 500, msg: 'Internal Server Error', data: null });
  if (rule.mode === 'redirect') {
    return {
      kind: 'raw',
      status: rule.status ?? 302,
      contentType: JSON_TYPE,
      body: JSON.stringify(REDIRECT_BODY),
      headers: { Location: rule.location ?? '/', 'Cache-Control': 'no-store' },
    };
  }
  return fail(rule.code ?? DEFAULT_FAILURE_CODE, '系统繁忙，请稍后再试');
}

async function handleApi(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const method = req.method ?? 'GET';
  const path = url.pathname;
  const isMedia = path.startsWith('/media/');
  // Media is not an API call: benchmarks count CMS round trips, not image fetches.
  if (!isMedia) ctx.control.record(statsKey(method, path, url.searchParams));
  const failure = ctx.control.failureFor(path);
  if (failure?.mode === 'hang') return; // never answered; server.close() destroys the socket
  if (!(await delay(ctx.control.latencyFor(path), res))) return;
  if (failure && failure.mode !== 'badjson') return send(req, res, failureReply(failure));
  const answer = isMedia ? undefined : ctx.control.answerFor(path);
  if (answer) return send(req, res, json(200, answer.body));
  const reply = await routeReply(ctx, req, path, url.searchParams, isMedia);
  if (failure?.mode === 'badjson') return sendTruncated(res, reply);
  send(req, res, reply);
}

type ApiContext = RouteContext & { accounts: Accounts; jsSdk: WechatJsSdk; images: ReferenceImages };

async function routeReply(ctx: ApiContext, req: IncomingMessage, path: string, query: URLSearchParams, isMedia: boolean): Promise<Reply> {
  const method = req.method ?? 'GET';
  if (isMedia) return method === 'GET' || method === 'HEAD' ? mediaReply(ctx.dataset, path, req.headers.range, ctx.images) : NOT_FOUND;
  if (ctx.jsSdk.handles(method, path)) return ctx.jsSdk.handle(path, query);
  const account = await accountReply(ctx.accounts, req, method, path, query);
  if (account) return account;
  const route = findRoute(method, path);
  if (!route) return NOT_FOUND;
  let body: BodyFields = {};
  if (route.readsBody) {
    try {
      body = await readBody(req);
    } catch (error) {
      if (error instanceof BadBodyError) return fail(CODE_BAD_PARAMS, MSG.badParams);
      throw error;
    }
  }
  return route.run(ctx, query, body);
}

/** Account, interaction and simulated-WeChat paths; null when the path is none of them. */
async function accountReply(accounts: Accounts, req: IncomingMessage, method: string, path: string, query: URLSearchParams): Promise<Reply | null> {
  if (!accounts.handles(method, path)) return null;
  let body: BodyFields = {};
  if (method === 'POST') {
    try {
      body = await readBody(req);
    } catch (error) {
      if (error instanceof BadBodyError) return fail(CODE_BAD_PARAMS, MSG.badParams);
      throw error;
    }
  }
  return accounts.handle(method, path, query, body, req.headers);
}

/** What the reader's lists show of an id, as the content calls present it (overrides applied, media absolute). */
function catalogOf(dataset: Dataset, present: Presenter): Catalog {
  const authorById = new Map(dataset.columnAuthors.map((author) => [author.id, author]));
  const tagById = new Map(dataset.tags.map((tag) => [tag.id, tag]));
  return {
    article: (id) => present.listItem(id),
    video: (id) => {
      const video = dataset.videoById.get(id);
      return video ? presentVideo(video, (path) => present.media(path), dataset.albumsOfVideo) : undefined;
    },
    author: (id) => {
      const author = authorById.get(id);
      return author ? present.columnAuthor(author) : undefined;
    },
    tag: (id) => tagById.get(id),
  };
}

export function createReferenceApi(options: ReferenceApiOptions = {}): ReferenceApi {
  const dataset = generateDataset({
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  const control = new ControlState({
    latency: options.latency ?? [],
    failures: options.failures ?? [],
    greyMode: dataset.greyMode,
    menuFaults: options.menuFaults === true,
    publicUrl: options.publicUrl ?? DEFAULT_PUBLIC_URL,
    articleExists: (id) => dataset.articleById.has(id),
    articleOfCategory: (catid) => dataset.articles.find((article) => article.catid === catid),
    firstFreeArticleId: Math.max(...dataset.articleById.keys()) + 1,
  });
  const createdAt = Date.now();
  const present = new Presenter(dataset, control);
  const withDrafts = new Presenter(dataset, control, true);
  const clock = () => dataset.now + Math.floor((Date.now() - createdAt) / 1000);
  const accounts = new Accounts(() => control.publicUrl(), catalogOf(dataset, present));
  const jsSdk = new WechatJsSdk(dataset.seed, clock, () => control.publicUrl());
  const ctx: ApiContext = { accounts, jsSdk, dataset, control, present, clock, images: options.images ?? referenceImagesOf(process.env.REFERENCE_IMAGES) };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://reference.local');
    if (url.pathname === '/healthz') {
      return send(req, res, { kind: 'raw', status: 200, contentType: 'text/plain; charset=utf-8', body: 'ok' });
    }
    if (url.pathname === CONTROL_PREFIX || url.pathname.startsWith(`${CONTROL_PREFIX}/`)) {
      if (options.controlPlane === false) return send(req, res, NOT_FOUND);
      return send(req, res, await handleControl(control, req.method ?? 'GET', url.pathname, req));
    }
    // A call made for an editor's preview is answered with drafts (docs/preview.md); every other with what is published.
    const previewing = req.headers[PREVIEW_HEADER] === PREVIEW_HEADER_VALUE;
    return handleApi(previewing ? { ...ctx, present: withDrafts } : ctx, req, res, url);
  };

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the stand-in must be loud in test output but must not take the process down.
      console.error('[reference-api]', error);
      send(req, res, json(500, { code: 500, msg: 'Internal Server Error', data: null }));
    });
  };

  return { handler, dataset, control, accounts, jsSdk };
}
