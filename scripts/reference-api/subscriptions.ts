/**
 * Subscriptions of docs/product.md §7, per signed-in user, in memory: column authors (column_subscribe/* and
 * special_column_author/toggle|subscribe_list share one set, as both subscribe to an author) and tags. Accounts
 * checks the token first; this module only keeps the sets. The lists a reader reads (subscribe_list,
 * get_subscribe_list) carry the authors' and tags' details, and leave out ids the dataset does not know.
 */
import type { RawColumnAuthor, RawSubscribedTags, RawTag } from '../../server/upstream/wire';
import type { BodyFields, Reply } from './http';
import { CODE_BAD_PARAMS, fail, MSG, ok } from './reply';
import { idList, listPaging, MAX_PAGE_SIZE, pagedList, positiveInt } from './params';

type Kind = 'author' | 'tag';

/** method + path → what to do; the paths Accounts routes here. */
export const SUBSCRIPTION_PATH =
  /^\/api\/(column_subscribe\/(toggle|batch_exist|list)|special_column_author\/(toggle|subscribe_list)|tag\/(toggle|batch_exist|get_subscribe_list))$/;

export interface SubscriptionCatalog {
  author(id: number): RawColumnAuthor | undefined;
  tag(id: number): RawTag | undefined;
}

export class Subscriptions {
  private readonly sets = new Map<string, Set<number>>();

  constructor(private readonly catalog: SubscriptionCatalog) {}

  private setOf(kind: Kind, userId: number): Set<number> {
    const key = `${kind}:${userId}`;
    let set = this.sets.get(key);
    if (!set) this.sets.set(key, (set = new Set()));
    return set;
  }

  handle(method: string, path: string, query: URLSearchParams, body: BodyFields, userId: number): Reply | null {
    const kind: Kind = path.startsWith('/api/tag/') ? 'tag' : 'author';
    const action = path.slice(path.lastIndexOf('/') + 1);
    const set = this.setOf(kind, userId);
    if (action === 'list') return method === 'GET' ? this.list(set, query) : null;
    if (action === 'subscribe_list') return method === 'GET' ? this.authors(set, query) : null;
    if (action === 'get_subscribe_list') return method === 'GET' ? this.tags(set, query) : null;
    if (method !== 'POST') return null;
    if (action === 'toggle') {
      const id = positiveInt(kind === 'tag' ? body['tag_id'] : (body['author_id'] ?? body['id']));
      if (id === null) return fail(40000, '参数错误');
      const on = !set.has(id);
      if (on) set.add(id);
      else set.delete(id);
      return ok({ subscribe_status: on ? 1 : 0 });
    }
    const ids = idList(body['list']);
    if (ids === null) return fail(40000, '参数错误');
    return ok(Object.fromEntries(ids.map((id) => [String(id), set.has(id) ? 1 : 0])));
  }

  /** Newest subscription first, paged. */
  private list(set: Set<number>, query: URLSearchParams): Reply {
    const page = positiveInt(query.get('page') ?? '1') ?? 1;
    const size = Math.min(positiveInt(query.get('page_size') ?? '10') ?? 10, MAX_PAGE_SIZE);
    const ids = [...set].reverse();
    return ok({ lists: ids.slice((page - 1) * size, page * size).map((id) => ({ id })), total: ids.length, page, page_size: size });
  }

  /** special_column_author/subscribe_list: the authors, newest subscription first, each with subscribe_status 1. */
  private authors(set: Set<number>, query: URLSearchParams): Reply {
    const paging = listPaging(query);
    if (paging === null) return fail(CODE_BAD_PARAMS, MSG.badParams);
    const authors = [...set].reverse().flatMap((id) => {
      const author = this.catalog.author(id);
      return author ? [{ ...author, subscribe_status: 1 as const }] : [];
    });
    return ok(pagedList(authors, paging));
  }

  /** tag/get_subscribe_list: the tags with their names, newest subscription first. */
  private tags(set: Set<number>, query: URLSearchParams): Reply {
    const paging = listPaging(query);
    if (paging === null) return fail(CODE_BAD_PARAMS, MSG.badParams);
    const tags = [...set].reverse().flatMap((id) => {
      const tag = this.catalog.tag(id);
      return tag ? [{ id: tag.id, name: tag.name }] : [];
    });
    const { list, total, page, page_size } = pagedList(tags, paging);
    const data: RawSubscribedTags = { lists: list, total, page, page_size };
    return ok(data);
  }

  reset(): void {
    this.sets.clear();
  }
}
