/**
 * The content-and-discovery calls of docs/product.md §7 beyond the spine's: search, headlines, tag/author/topic lists, category
 * chains, special reports, 精品, 视刻 videos, product details, lives, newspapers and the app skin. Paging follows the
 * CMS: totals over all pages, pages past the end are empty, page_size at most 50, bad values → 40000.
 */
import { ELECTRONIC_ID } from '../../shared/constants';
import type {
  LiveStatus,
  RawArticleListItem,
  RawBoutiqueList,
  RawColumnAuthorInfo,
  RawHeadlineNews,
  RawLive,
  RawLivePlayback,
  RawNewsSearchInit,
  RawNewspaperSearch,
  RawPagedList,
  RawParentCategory,
  RawSearchResult,
  RawShikeCategoryItems,
  RawSpecialReport,
  RawVideoAlbum,
} from '../../server/upstream/wire';
import { DAY_SECONDS } from './articles';
import { presentBoutique } from './boutique';
import { toRawCategory } from './categories';
import type { SpecialRecord } from './dataset';
import type { Reply } from './http';
import { presentLive, presentPlayback } from './lives';
import { issueMatches, NEWSPAPER_CATIDS, presentIssue } from './newspapers';
import { paginate, ParamError, parseId, parseOptionalId, parsePage, parsePageSize } from './params';
import { CODE_NOT_FOUND, fail, MSG, ok } from './reply';
import type { ApiRequest, Route, RouteContext } from './route-types';
import { RECENT_DAYS, searchArticles, searchTerms } from './search';
import { stageOf } from './specials';
import { presentShikeCategory, presentVideo } from './videos';

const DEFAULT_PAGE_SIZE = 10;
const SHIKE_PAGE_SIZE = 12;

function q(req: ApiRequest, name: string): string | undefined {
  return req.query.get(name) ?? undefined;
}

interface Paging {
  page: number;
  size: number;
}

function paging(req: ApiRequest, fallback = DEFAULT_PAGE_SIZE): Paging {
  return { page: parsePage(q(req, 'page')), size: parsePageSize(q(req, 'page_size'), fallback) };
}

function paged<T, U>(items: readonly T[], { page, size }: Paging, map: (item: T) => U): RawPagedList<U> {
  return { list: paginate(items, page, size).map(map), total: items.length, page, page_size: size };
}

/** One of the listed values, or the fallback when absent; anything else is a bad parameter. */
function parseChoice<T extends number>(value: string | undefined, choices: readonly T[], fallback: T | null): T {
  if ((value === undefined || value === '') && fallback !== null) return fallback;
  const choice = choices.find((candidate) => String(candidate) === value?.trim());
  if (choice === undefined) throw new ParamError(`not one of ${choices.join(',')}: ${String(value)}`);
  return choice;
}

function articleItems(ctx: RouteContext, ids: readonly number[], page: Paging): RawPagedList<RawArticleListItem> {
  const slice = paginate(ids, page.page, page.size);
  return { list: ctx.present.listItems(slice), total: ids.length, page: page.page, page_size: page.size };
}

function newestFirst(ctx: RouteContext, ids: readonly number[]): number[] {
  const date = (id: number): number => ctx.dataset.articleById.get(id)?.adddate ?? 0;
  return [...ids].sort((left, right) => date(right) - date(left) || right - left);
}

function searchAll(ctx: RouteContext, req: ApiRequest): Reply {
  const type = parseChoice(q(req, 'type'), [1, 2] as const, 2);
  const page = paging(req);
  const query = (q(req, 'q') ?? '').trim();
  const since = type === 1 ? ctx.clock() - RECENT_DAYS * DAY_SECONDS : null;
  const ids = searchArticles(ctx.dataset, searchTerms(query), since);
  const data: RawSearchResult = { ...articleItems(ctx, ids, page), q: query, type };
  return ok(data);
}

function headlineNews(ctx: RouteContext, req: ApiRequest): Reply {
  const data: RawHeadlineNews = articleItems(ctx, ctx.dataset.headlineIds, paging(req));
  return ok(data);
}

function newsSearchInit(ctx: RouteContext, req: ApiRequest): Reply {
  const tagId = parseOptionalId(q(req, 'tag_id'));
  const columnistId = parseOptionalId(q(req, 'columnist_id'));
  const themeId = parseOptionalId(q(req, 'themeid'));
  const page = paging(req);
  const terms = searchTerms(q(req, 'q') ?? '');
  const { dataset } = ctx;
  const tag = tagId === null ? null : dataset.tags.find((candidate) => candidate.id === tagId);
  if (tag === undefined) return fail(CODE_NOT_FOUND, MSG.noTag);
  const columnist = columnistId === null ? null : dataset.columnAuthors.find((author) => author.id === columnistId);
  if (columnist === undefined) return fail(CODE_NOT_FOUND, MSG.noAuthor);
  const theme = themeId === null ? null : dataset.topicById.get(themeId);
  if (theme === undefined) return fail(CODE_NOT_FOUND, MSG.noTopic);
  // Each filter narrows the set; with no id filter the keyword alone decides (an empty keyword finds nothing).
  const sets: number[][] = [];
  if (tag) sets.push([...(dataset.articlesByTag.get(tag.id) ?? [])]);
  if (columnist) sets.push([...(dataset.articlesByColumnist.get(columnist.id) ?? [])]);
  if (theme) sets.push(theme.articleIds);
  if (terms.length > 0) sets.push(searchArticles(dataset, terms, null));
  const [first, ...rest] = sets;
  const ids = first
    ? newestFirst(
        ctx,
        first.filter((id) => rest.every((set) => set.includes(id))),
      )
    : [];
  const data: RawNewsSearchInit = {
    ...articleItems(ctx, ids, page),
    tag: tag ? { ...tag } : null,
    columnist: columnist ? ctx.present.columnAuthor(columnist) : null,
    theme: theme ? ctx.present.topic(theme) : null,
  };
  return ok(data);
}

function parentCategory(ctx: RouteContext, req: ApiRequest): Reply {
  const id = parseId(q(req, 'id'));
  const withChildren = parseChoice(q(req, 'type'), [0, 1] as const, 0) === 1;
  const { childrenOf } = ctx.dataset;
  const category = (catid: number) => ctx.present.categoryRecord(catid);
  if (!category(id)) return fail(CODE_NOT_FOUND, MSG.noCategory);
  const chain = [];
  for (let cursor = category(id); cursor; cursor = category(cursor.parentid)) chain.unshift(cursor);
  const data: RawParentCategory = {
    list: chain.map((record) => {
      const children = withChildren
        ? (childrenOf.get(record.catid) ?? []).flatMap((childId) => {
            const child = category(childId);
            return child ? [toRawCategory(child, [])] : [];
          })
        : [];
      return toRawCategory(record, children);
    }),
  };
  return ok(data);
}

function authorInfo(ctx: RouteContext, req: ApiRequest): Reply {
  const id = parseId(q(req, 'id'));
  const author = ctx.dataset.columnAuthors.find((candidate) => candidate.id === id);
  if (!author) return fail(CODE_NOT_FOUND, MSG.noAuthor);
  const data: RawColumnAuthorInfo = {
    ...ctx.present.columnAuthor(author),
    // The bio opens with the author's title ('中国青年报评论员，长期关注…').
    title: author.description.split('，')[0] ?? '',
    article_count: ctx.dataset.articlesByColumnist.get(id)?.length ?? 0,
  };
  return ok(data);
}

function presentSpecial(ctx: RouteContext, report: SpecialRecord): RawSpecialReport {
  const items = ctx.present.listItems(report.article_ids);
  return {
    ...report,
    cover: ctx.present.media(report.cover),
    article_ids: [...report.article_ids],
    articles: items.map((item, index) => ({ ...item, stage: stageOf(index, items.length, report.status) })),
  };
}

/** catid 0 means every category (the reference API's way for /newsTrack/{id}, which knows only the report id). */
function specialsByCatid(ctx: RouteContext, req: ApiRequest): Reply {
  const catid = parseId(q(req, 'catid'));
  const id = parseOptionalId(q(req, 'id'));
  const { categoryById, childrenOf } = ctx.dataset;
  if (catid !== 0 && !categoryById.has(catid)) return fail(CODE_NOT_FOUND, MSG.noCategory);
  const scope = new Set<number>([catid]);
  for (const member of scope) for (const child of childrenOf.get(member) ?? []) scope.add(child);
  const reports = ctx.dataset.specials.filter((report) => (catid === 0 || scope.has(report.catid)) && (id === null || report.id === id));
  if (id !== null && reports.length === 0) return fail(CODE_NOT_FOUND, MSG.noSpecial);
  return ok(reports.map((report) => presentSpecial(ctx, report)));
}

function boutiqueList(ctx: RouteContext, req: ApiRequest): Reply {
  const type = q(req, 'type') === undefined || q(req, 'type') === '' ? null : parseChoice(q(req, 'type'), [1, 2] as const, null);
  const items = ctx.dataset.boutique.filter((item) => type === null || item.type === type);
  const data: RawBoutiqueList = paged(items, paging(req), (item) => presentBoutique(item, (path) => ctx.present.media(path)));
  return ok(data);
}

function shikeCategories(ctx: RouteContext): Reply {
  return ok(ctx.dataset.shikeCategories.map((category) => presentShikeCategory(category, (path) => ctx.present.media(path))));
}

function shikeCategoryItems(ctx: RouteContext, req: ApiRequest): Reply {
  const id = parseId(q(req, 'id'));
  const page = paging(req, SHIKE_PAGE_SIZE);
  const category = ctx.dataset.shikeCategories.find((candidate) => candidate.id === id);
  if (!category) return fail(CODE_NOT_FOUND, MSG.noShikeCategory);
  const media = (path: string): string => ctx.present.media(path);
  const videos = ctx.dataset.videos.filter((video) => video.category_id === id);
  const data: RawShikeCategoryItems = {
    ...paged(videos, page, (video) => presentVideo(video, media, ctx.dataset.albumsOfVideo)),
    category: presentShikeCategory(category, media),
  };
  return ok(data);
}

function videoDetail(ctx: RouteContext, req: ApiRequest): Reply {
  const video = ctx.dataset.videoById.get(parseId(q(req, 'id')));
  return video ? ok(presentVideo(video, (path) => ctx.present.media(path), ctx.dataset.albumsOfVideo)) : fail(CODE_NOT_FOUND, MSG.noVideo);
}

function albumDetail(ctx: RouteContext, req: ApiRequest): Reply {
  const album = ctx.dataset.albumById.get(parseId(q(req, 'id')));
  if (!album) return fail(CODE_NOT_FOUND, MSG.noAlbum);
  const media = (path: string): string => ctx.present.media(path);
  const { videoIds, ...rest } = album;
  const data: RawVideoAlbum = {
    ...rest,
    cover: media(album.cover),
    videos: videoIds.flatMap((id) => {
      const video = ctx.dataset.videoById.get(id);
      return video ? [presentVideo(video, media, ctx.dataset.albumsOfVideo)] : [];
    }),
  };
  return ok(data);
}

function liveDetail(ctx: RouteContext, req: ApiRequest): Reply {
  const live = ctx.dataset.liveById.get(parseId(q(req, 'id')));
  return live ? ok(presentLive(live, (path) => ctx.present.media(path))) : fail(CODE_NOT_FOUND, MSG.noLive);
}

function articleDetailById(ctx: RouteContext, req: ApiRequest): Reply {
  const article = ctx.present.articleDetail(parseId(q(req, 'id')));
  return article ? ok(article) : fail(CODE_NOT_FOUND, MSG.noArticle);
}

const PRODUCT_DETAIL: Readonly<Record<string, (ctx: RouteContext, req: ApiRequest) => Reply>> = {
  video: videoDetail,
  video_album: albumDetail,
  live: liveDetail,
  article: articleDetailById,
};

function productDetail(ctx: RouteContext, req: ApiRequest): Reply {
  const handler = PRODUCT_DETAIL[req.params[0] ?? ''];
  return handler ? handler(ctx, req) : fail(CODE_NOT_FOUND, MSG.noProduct);
}

/** On air: latest start first; upcoming: soonest first; ended: latest end first. */
function liveOrder(status: LiveStatus): (left: RawLive, right: RawLive) => number {
  if (status === 1) return (left, right) => (right.start_time ?? 0) - (left.start_time ?? 0) || right.id - left.id;
  if (status === 2) return (left, right) => (left.start_time ?? 0) - (right.start_time ?? 0) || left.id - right.id;
  return (left, right) => (right.end_time ?? 0) - (left.end_time ?? 0) || right.id - left.id;
}

function liveList(ctx: RouteContext, req: ApiRequest): Reply {
  const status = parseChoice(q(req, 'show_type'), [1, 2, 3] as const, null);
  const lives = ctx.dataset.lives.filter((live) => live.status === status).sort(liveOrder(status));
  return ok(paged(lives, paging(req), (live) => presentLive(live, (path) => ctx.present.media(path))));
}

/** With an id: that live's recordings in part order; without: every recording, newest first. */
function playbackList(ctx: RouteContext, req: ApiRequest): Reply {
  const liveId = parseOptionalId(q(req, 'id'));
  const page = paging(req);
  if (liveId !== null && !ctx.dataset.liveById.has(liveId)) return fail(CODE_NOT_FOUND, MSG.noLive);
  const recordings =
    liveId === null ? [...ctx.dataset.playbacks] : ctx.dataset.playbacks.filter((entry) => entry.live_id === liveId).sort((left, right) => left.id - right.id);
  const data: RawPagedList<RawLivePlayback> = paged(recordings, page, (entry) => presentPlayback(entry, (path) => ctx.present.media(path)));
  return ok(data);
}

/** catid absent, 0 or ELECTRONIC_ID (电子报) means every paper; another category has no issues. */
function newspaperSearch(ctx: RouteContext, req: ApiRequest): Reply {
  const catid = parseOptionalId(q(req, 'catid'));
  const page = paging(req);
  const keyword = (q(req, 'q') ?? '').trim().slice(0, 100);
  if (catid !== null && catid !== 0 && !ctx.dataset.categoryById.has(catid)) return fail(CODE_NOT_FOUND, MSG.noCategory);
  const everyPaper = catid === null || catid === 0 || catid === ELECTRONIC_ID;
  const issues = ctx.dataset.newspapers.filter(
    (issue) => (everyPaper ? NEWSPAPER_CATIDS.includes(issue.catid) : issue.catid === catid) && issueMatches(issue, keyword),
  );
  const data: RawNewspaperSearch = paged(issues, page, (issue) => presentIssue(issue, (path) => ctx.present.media(path)));
  return ok(data);
}

function appSkin(ctx: RouteContext): Reply {
  const skin = ctx.dataset.appSkin;
  return ok({ ...skin, header_background: ctx.present.media(skin.header_background), logo: ctx.present.media(skin.logo) });
}

export const CONTENT_ROUTES: readonly Route[] = [
  { method: 'GET', pattern: /^\/api\/rmt\/search_all$/, handler: searchAll },
  { method: 'GET', pattern: /^\/api\/rmt\/get_headline_news$/, handler: headlineNews },
  { method: 'GET', pattern: /^\/api\/rmt\/news_search_init$/, handler: newsSearchInit },
  { method: 'GET', pattern: /^\/api\/rmt\/get_parent_category$/, handler: parentCategory },
  { method: 'GET', pattern: /^\/api\/rmt\/read_newspapers_search$/, handler: newspaperSearch },
  { method: 'GET', pattern: /^\/api\/special_column_author\/info$/, handler: authorInfo },
  { method: 'GET', pattern: /^\/api\/special\/list_by_catid$/, handler: specialsByCatid },
  { method: 'GET', pattern: /^\/api\/boutique\/list$/, handler: boutiqueList },
  { method: 'GET', pattern: /^\/api\/video_album\/shike_video_category$/, handler: shikeCategories },
  { method: 'GET', pattern: /^\/api\/video_album\/shike_video_category_item$/, handler: shikeCategoryItems },
  { method: 'GET', pattern: /^\/api\/video_album\/shike_video_item$/, handler: videoDetail },
  { method: 'GET', pattern: /^\/api\/(video|video_album|live|article)\/detail$/, handler: productDetail },
  { method: 'GET', pattern: /^\/api\/live\/list$/, handler: liveList },
  { method: 'GET', pattern: /^\/api\/live\/info$/, handler: liveDetail },
  { method: 'GET', pattern: /^\/api\/live\/playback_list$/, handler: playbackList },
  { method: 'GET', pattern: /^\/api\/common\/app_skin$/, handler: appSkin },
];
