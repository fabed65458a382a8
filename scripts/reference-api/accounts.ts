/**
 * The account side of the CMS (docs/product.md §6–§7) and a stand-in for WeChat's web sign-in, so the whole QR flow runs
 * locally: /__wechat/qrconnect is the page a phone would confirm, it redirects to redirect_uri?code=&state= like
 * open.weixin.qq.com does, and POST /api/user/third exchanges the single-use code for a token. Likes and
 * collections are kept in memory per user. Signed-in calls carry the token in a `token` header (docs/product.md §6).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { checkFeedback, type FeedbackInput } from '../../shared/feedback';
import { escapeHtml } from '../../server/platform/html';
import type { RawArticleListItem, RawColumnAuthor, RawFeedbackReceipt, RawTag, RawVideo } from '../../server/upstream/wire';
import type { BodyFields, Reply } from './http';
import { CODE_BAD_PARAMS, fail, MSG, ok } from './reply';
import { SUBSCRIPTION_PATH, Subscriptions } from './subscriptions';
import { idList, isHttpUrl, listPaging, pagedList, positiveInt } from './params';

export const WECHAT_PREFIX = '/__wechat';
export const CODE_LOGIN_FAILED = 40100;
export const CODE_NOT_SIGNED_IN = 40101;
export const MSG_LOGIN_FAILED = '登录失败';
export const MSG_NOT_SIGNED_IN = '请先登录';
export const DEFAULT_NICKNAME = '青年读者';
/** WeChat's codes live five minutes; a test never needs longer. */
const CODE_TTL_MS = 5 * 60 * 1000;
const FIRST_USER_ID = 1001;

export interface UserInfo {
  user_id: number;
  avatar: string;
  nickname: string;
}

/** What the reader's lists show of each collected or subscribed id, as the content calls present it. */
export interface Catalog {
  article(id: number): RawArticleListItem | undefined;
  video(id: number): RawVideo | undefined;
  author(id: number): RawColumnAuthor | undefined;
  tag(id: number): RawTag | undefined;
}

export interface FeedbackRecord extends FeedbackInput {
  id: number;
  userId: number;
}

const LIST_PATH = /^\/api\/(collection|collection_video)\/list_and_article_detail$/;
const FEEDBACK_PATH = '/api/common/feedback';

/** The interaction families of docs/product.md §7 that are toggled per article. */
const TOGGLE_FAMILIES = ['thumbsup', 'collection', 'collection_video'] as const;
type Family = (typeof TOGGLE_FAMILIES)[number];

function html(status: number, body: string, headers: Record<string, string> = {}): Reply {
  return { kind: 'raw', status, contentType: 'text/html; charset=utf-8', body, headers: { 'Cache-Control': 'no-store', ...headers } };
}

export class Accounts {
  private readonly codes = new Map<string, { userId: number; expires: number }>();
  private readonly tokens = new Map<string, number>();
  private readonly users = new Map<number, UserInfo>();
  private readonly userByNickname = new Map<string, number>();
  private readonly subscriptions: Subscriptions;
  /** family → user → set of `catid:articleId`, in the order they were marked. */
  private readonly marks = new Map<Family, Map<number, Set<string>>>(TOGGLE_FAMILIES.map((family) => [family, new Map()]));
  private readonly feedback: FeedbackRecord[] = [];

  constructor(
    private readonly mediaUrl: () => string,
    private readonly catalog: Catalog,
  ) {
    this.subscriptions = new Subscriptions(catalog);
  }

  /** Whether the path is one of this module's (so the body is read only for those). */
  handles(method: string, path: string): boolean {
    if (path.startsWith(`${WECHAT_PREFIX}/`)) return method === 'GET';
    return (
      /^\/api\/(user\/(third|logout|profile)|(thumbsup|collection|collection_video)\/(toggle|batch_exist|get_num))$/.test(path) ||
      SUBSCRIPTION_PATH.test(path) ||
      LIST_PATH.test(path) ||
      path === FEEDBACK_PATH
    );
  }

  /** Handles /__wechat/* and the account and interaction paths; null for every other path. */
  handle(method: string, path: string, query: URLSearchParams, body: BodyFields, headers: IncomingHttpHeaders): Reply | null {
    if (path === `${WECHAT_PREFIX}/qrconnect` && method === 'GET') return this.qrPage(query);
    if (path === `${WECHAT_PREFIX}/confirm` && method === 'GET') return this.confirm(query);
    if (path === '/api/user/third' && method === 'POST') return this.exchange(body);
    const family = /^\/api\/(thumbsup|collection|collection_video)\/(toggle|batch_exist|get_num)$/.exec(path);
    const isUserPath = path === '/api/user/logout' || path === '/api/user/profile' || path === FEEDBACK_PATH;
    const isSubscription = SUBSCRIPTION_PATH.test(path);
    const list = LIST_PATH.exec(path);
    if (!family && !isUserPath && !isSubscription && !list) return null;
    if (family?.[2] === 'get_num') return method === 'GET' ? this.count(family[1] as Family, query) : null;
    if (list && method !== 'GET') return null;
    if (method !== 'POST' && !isSubscription && !list) return null;
    const token = typeof headers.token === 'string' ? headers.token : '';
    const userId = this.tokens.get(token);
    if (userId === undefined) return fail(CODE_NOT_SIGNED_IN, MSG_NOT_SIGNED_IN);
    if (isSubscription) return this.subscriptions.handle(method, path, query, body, userId);
    if (list) return this.collected(list[1] as 'collection' | 'collection_video', userId, query);
    if (path === FEEDBACK_PATH) return this.receiveFeedback(userId, body);
    if (path === '/api/user/logout') {
      this.tokens.delete(token);
      return ok(null);
    }
    if (path === '/api/user/profile') return ok({ userinfo: this.users.get(userId) });
    const name = family![1] as Family;
    return family![2] === 'toggle' ? this.toggle(name, userId, body) : this.batchExist(name, userId, body);
  }

  /**
   * Like open.weixin.qq.com/connect/qrconnect: refuses a request missing what WeChat requires. Framed by a site's
   * login dialog (login_type=jssdk, self_redirect=false) the confirmation takes the whole page to redirect_uri.
   */
  private qrPage(query: URLSearchParams): Reply {
    const redirectUri = query.get('redirect_uri') ?? '';
    const state = query.get('state') ?? '';
    if (!query.get('appid') || query.get('response_type') !== 'code' || query.get('scope') !== 'snsapi_login' || !isHttpUrl(redirectUri)) {
      return html(400, '<!doctype html><meta charset="utf-8"><title>参数错误</title><p>参数错误</p>');
    }
    return html(
      200,
      `<!doctype html><html lang="zh-CN"><meta charset="utf-8"><title>微信登录（模拟）</title><link rel="icon" href="data:,">
<form method="get" action="${WECHAT_PREFIX}/confirm"${framedForTopLevel(query) ? ' target="_top"' : ''}>
<input type="hidden" name="redirect_uri" value="${escapeHtml(redirectUri)}">
<input type="hidden" name="state" value="${escapeHtml(state)}">
<label>昵称 <input name="nickname" value="${DEFAULT_NICKNAME}"></label>
<button type="submit">模拟扫码确认</button>
</form></html>`,
    );
  }

  /** The phone confirmed: a fresh single-use code for the nickname's user (one user per nickname). */
  private confirm(query: URLSearchParams): Reply {
    const redirectUri = query.get('redirect_uri') ?? '';
    if (!isHttpUrl(redirectUri)) return html(400, '<!doctype html><meta charset="utf-8"><p>参数错误</p>');
    const code = this.issueCode((query.get('nickname') ?? '').trim().slice(0, 32) || DEFAULT_NICKNAME);
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', query.get('state') ?? '');
    return html(302, '', { Location: target.toString() });
  }

  /** A fresh single-use code for the nickname's user; tests also call it to drive the exchange directly. */
  issueCode(nickname = DEFAULT_NICKNAME): string {
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, { userId: this.userFor(nickname), expires: Date.now() + CODE_TTL_MS });
    return code;
  }

  private userFor(nickname: string): number {
    const known = this.userByNickname.get(nickname);
    if (known !== undefined) return known;
    const userId = FIRST_USER_ID + this.users.size;
    this.userByNickname.set(nickname, userId);
    this.users.set(userId, { user_id: userId, nickname, avatar: `${this.mediaUrl()}/media/img/u${userId}-64x64.jpg` });
    return userId;
  }

  private exchange(body: BodyFields): Reply {
    const code = typeof body['code'] === 'string' ? body['code'] : '';
    const issued = this.codes.get(code);
    // Single use, like WeChat's: a replayed code fails even within its lifetime.
    this.codes.delete(code);
    if (body['platform'] !== 'wechat_webapp' || !issued || issued.expires < Date.now()) return fail(CODE_LOGIN_FAILED, MSG_LOGIN_FAILED);
    const token = randomBytes(24).toString('hex');
    this.tokens.set(token, issued.userId);
    const userinfo = this.users.get(issued.userId)!;
    return ok({ user_id: userinfo.user_id, token, userinfo });
  }

  private marksOf(family: Family, userId: number): Set<string> {
    const byUser = this.marks.get(family)!;
    let set = byUser.get(userId);
    if (!set) byUser.set(userId, (set = new Set()));
    return set;
  }

  private toggle(family: Family, userId: number, body: BodyFields): Reply {
    const catid = positiveInt(body['catid']);
    const articleId = positiveInt(body['article_id'] ?? body['id']);
    if (catid === null || articleId === null) return fail(40000, '参数错误');
    const set = this.marksOf(family, userId);
    const key = `${catid}:${articleId}`;
    const on = !set.has(key);
    if (on) set.add(key);
    else set.delete(key);
    return ok({ status: on ? 1 : 0 });
  }

  /** {article id: 0 | 1} for each id of the list, so a list page can show every item's state at once. */
  private batchExist(family: Family, userId: number, body: BodyFields): Reply {
    const catid = positiveInt(body['catid']);
    const ids = idList(body['list']);
    if (catid === null || ids === null) return fail(40000, '参数错误');
    const set = this.marksOf(family, userId);
    return ok(Object.fromEntries(ids.map((id) => [String(id), set.has(`${catid}:${id}`) ? 1 : 0])));
  }

  private count(family: Family, query: URLSearchParams): Reply {
    const catid = positiveInt(query.get('catid'));
    const articleId = positiveInt(query.get('article_id'));
    if (catid === null || articleId === null) return fail(40000, '参数错误');
    const key = `${catid}:${articleId}`;
    let num = 0;
    for (const set of this.marks.get(family)!.values()) if (set.has(key)) num += 1;
    return ok({ num });
  }

  /** GET …/list_and_article_detail: the reader's collected articles or videos with their details, newest first. */
  private collected(family: 'collection' | 'collection_video', userId: number, query: URLSearchParams): Reply {
    const paging = listPaging(query);
    if (paging === null) return fail(CODE_BAD_PARAMS, MSG.badParams);
    const ids = [...new Set([...this.marksOf(family, userId)].reverse().map((key) => Number(key.slice(key.indexOf(':') + 1))))];
    if (family === 'collection') {
      // An article is listed under the category it was collected in only when it is still filed there.
      const keys = new Set(this.marksOf(family, userId));
      const items = ids.flatMap((id) => {
        const item = this.catalog.article(id);
        return item && keys.has(`${item.catid}:${id}`) ? [item] : [];
      });
      return ok(pagedList(items, paging));
    }
    const videos = ids.flatMap((id) => {
      const video = this.catalog.video(id);
      return video ? [video] : [];
    });
    return ok(pagedList(videos, paging));
  }

  /** POST /api/common/feedback {content, contact}: checked with the portal's own rules, kept per reader. */
  private receiveFeedback(userId: number, body: BodyFields): Reply {
    const checked = checkFeedback(body);
    if (!checked.ok) return fail(CODE_BAD_PARAMS, checked.message);
    const record: FeedbackRecord = { id: this.feedback.length + 1, userId, ...checked.value };
    this.feedback.push(record);
    const receipt: RawFeedbackReceipt = { id: record.id };
    return ok(receipt);
  }

  /** Feedback received so far (tests read what arrived). */
  feedbackOf(userId: number): FeedbackRecord[] {
    return this.feedback.filter((record) => record.userId === userId).map((record) => ({ ...record }));
  }

  /** The reader changed their name at the CMS (tests of profile refresh). */
  rename(userId: number, nickname: string): boolean {
    const user = this.users.get(userId);
    if (!user) return false;
    this.users.set(userId, { ...user, nickname });
    return true;
  }

  reset(): void {
    this.codes.clear();
    this.tokens.clear();
    for (const byUser of this.marks.values()) byUser.clear();
    this.subscriptions.reset();
    this.feedback.length = 0;
  }
}

/** WeChat's embedded widget with self_redirect=false: the redirect replaces the top page, not the frame. */
function framedForTopLevel(query: URLSearchParams): boolean {
  return query.get('login_type') === 'jssdk' && query.get('self_redirect') !== 'true';
}
