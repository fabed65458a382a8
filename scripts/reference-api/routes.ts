/**
 * The content API of docs/product.md §7 over the dataset. Every answer is HTTP 200 with a {code, msg, data} envelope, like the
 * CMS it stands in for: 0 success, 40004 not found, 40000 bad parameters.
 */
import type { RawArticleList, RawColumnAuthorList, RawTopicList } from '../../server/upstream/wire';
import type { BodyFields, Reply } from './http';
import { CONTENT_ROUTES } from './content-routes';
import { CODE_BAD_PARAMS, CODE_NOT_FOUND, fail, MSG, ok } from './reply';
import { paginate, ParamError, parseId, parseOptionalId, parsePage, parsePageSize } from './params';
import type { ApiRequest, Route, RouteContext } from './route-types';

export type { ApiRequest, Handler, Route, RouteContext } from './route-types';
export { CODE_BAD_PARAMS, CODE_NOT_FOUND, CODE_OK, fail, MSG, ok } from './reply';

const LIST_PAGE_SIZE = 20;
const TOPIC_PAGE_SIZE = 10;
const AUTHOR_PAGE_SIZE = 10;

/** query.get() gives null for a missing key; the parsers treat null like undefined. */
function q(req: ApiRequest, name: string): string | undefined {
  return req.query.get(name) ?? undefined;
}

function categoryIndex(ctx: RouteContext, req: ApiRequest): Reply {
  const catid = parseId(req.body['catid']);
  const children = (ctx.dataset.childrenOf.get(catid) ?? []).flatMap((childId) => {
    const child = ctx.present.categoryTree(childId);
    return child ? [child] : [];
  });
  return ok({ children });
}

function articleList(ctx: RouteContext, req: ApiRequest): Reply {
  const catid = parseId(req.params[0]);
  const page = parsePage(req.params[1]);
  const pagesize = parsePageSize(q(req, 'pagesize'), LIST_PAGE_SIZE);
  const ids = ctx.dataset.listByCatid.get(catid);
  if (!ids) return fail(CODE_NOT_FOUND, MSG.noCategory);
  const data: RawArticleList = { lists: ctx.present.listItems(paginate(ids, page, pagesize)), total: ids.length, page, pagesize };
  return ok(data);
}

function articleDetail(ctx: RouteContext, req: ApiRequest): Reply {
  const catid = parseId(req.params[0]);
  const id = parseId(req.params[1]);
  // Membership is the dataset's: an override cannot move an article to another category.
  if (ctx.present.categoryOf(id) !== catid) return fail(CODE_NOT_FOUND, MSG.noArticle);
  const article = ctx.present.articleDetail(id);
  return article ? ok(article) : fail(CODE_NOT_FOUND, MSG.noArticle);
}

/** docs/product.md §7: recommended topics and side-column ads are fetched for the pseudo-category -4. */
export const RECOMMEND_CATID = '-4';

function topicList(ctx: RouteContext, req: ApiRequest): Reply {
  const page = parsePage(req.params[0]);
  const pageSize = parsePageSize(q(req, 'pageSize'), TOPIC_PAGE_SIZE);
  const officeId = parseOptionalId(q(req, 'officeId'));
  // Any other catid is ignored, as it always was: topic lists are not per category.
  const recommended = q(req, 'catid')?.trim() === RECOMMEND_CATID ? new Set(ctx.dataset.recommendedTopicIds) : null;
  const topics = ctx.dataset.topics.filter(
    (topic) => (officeId === null || topic.officeId === officeId) && (recommended === null || recommended.has(topic.id)),
  );
  const data: RawTopicList = { list: paginate(topics, page, pageSize).map((topic) => ctx.present.topic(topic)), total: topics.length };
  return ok(data);
}

function topicDetail(ctx: RouteContext, req: ApiRequest): Reply {
  const topic = ctx.dataset.topicById.get(parseId(req.params[0]));
  return topic ? ok(ctx.present.topicDetail(topic)) : fail(CODE_NOT_FOUND, MSG.noTopic);
}

function menuList(ctx: RouteContext): Reply {
  return ok(ctx.present.menu());
}

function adsByColumn(ctx: RouteContext, req: ApiRequest): Reply {
  if (q(req, 'catid')?.trim() === RECOMMEND_CATID) return ok(ctx.present.adSlots(ctx.dataset.recommendAdSlots));
  const slots = ctx.dataset.homeAdSlots.get(parseId(q(req, 'catid')));
  return ok(slots ? ctx.present.adSlots(slots) : []);
}

function adTop(ctx: RouteContext, req: ApiRequest): Reply {
  parseId(q(req, 'catid'));
  return ok(ctx.present.adGroups(ctx.dataset.adGroups));
}

function columnAuthors(ctx: RouteContext, req: ApiRequest): Reply {
  const page = parsePage(q(req, 'page'));
  const size = parsePageSize(q(req, 'page_size'), AUTHOR_PAGE_SIZE);
  const authors = ctx.dataset.columnAuthors;
  const data: RawColumnAuthorList = { list: paginate(authors, page, size).map((author) => ctx.present.columnAuthor(author)), count: authors.length };
  return ok(data);
}

function siteInfo(ctx: RouteContext, req: ApiRequest): Reply {
  const info = ctx.dataset.siteInfo.get(parseId(q(req, 'site_id')));
  return info ? ok(structuredClone(info), { time: ctx.clock() }) : fail(CODE_NOT_FOUND, MSG.noSite);
}

function greyMode(ctx: RouteContext): Reply {
  return ok(ctx.control.currentGreyMode());
}

function domainByCatid(ctx: RouteContext, req: ApiRequest): Reply {
  const domain = ctx.dataset.domainByCatid.get(parseId(q(req, 'catid')));
  return domain ? ok({ domain }) : fail(CODE_NOT_FOUND, MSG.noCategory);
}

const ROUTES: readonly Route[] = [
  { method: 'POST', pattern: /^\/mobile\/index\/category_index$/, handler: categoryIndex },
  { method: 'GET', pattern: /^\/list\/([^/]+)\/([^/]+)\.html$/, handler: articleList },
  { method: 'GET', pattern: /^\/show\/([^/]+?)-([^/]+)\.html$/, handler: articleDetail },
  { method: 'GET', pattern: /^\/theme\/list\/([^/]+)$/, handler: topicList },
  { method: 'GET', pattern: /^\/theme\/get\/([^/]+)$/, handler: topicDetail },
  { method: 'GET', pattern: /^\/api\/common\/get_menu_list$/, handler: menuList },
  { method: 'GET', pattern: /^\/api\/ad\/list_by_column_id$/, handler: adsByColumn },
  { method: 'GET', pattern: /^\/api\/ad\/top$/, handler: adTop },
  { method: 'GET', pattern: /^\/api\/special_column_author\/list$/, handler: columnAuthors },
  { method: 'GET', pattern: /^\/api\/common\/get_site_info$/, handler: siteInfo },
  { method: 'GET', pattern: /^\/api\/common\/grey_mode$/, handler: greyMode },
  { method: 'GET', pattern: /^\/api\/common\/get_domain_by_catId$/, handler: domainByCatid },
  ...CONTENT_ROUTES,
];

export interface MatchedRoute {
  run(ctx: RouteContext, query: URLSearchParams, body: BodyFields): Reply;
  /** Whether the handler reads a request body. */
  readsBody: boolean;
}

export function findRoute(method: string, path: string): MatchedRoute | null {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (!match) continue;
    const params = match.slice(1).map((value) => safeDecode(value ?? ''));
    return {
      readsBody: method === 'POST',
      run(ctx, query, body) {
        try {
          return route.handler(ctx, { query, body, params });
        } catch (error) {
          if (error instanceof ParamError) return fail(CODE_BAD_PARAMS, MSG.badParams);
          throw error;
        }
      },
    };
  }
  return null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
