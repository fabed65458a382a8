/**
 * Expected content, read from the reference content API over HTTP, the way the portal reads it, so tests
 * assert against the generated dataset without pasting any of it.
 */
import { HOME_CATID } from '../../shared/constants';
import type { Envelope } from '../../shared/types/envelope';
import type { RawArticleDetail, RawArticleList, RawCategoryIndex } from '../../server/upstream/wire';

/** One call's data from the reference API; a non-zero code fails the test that asked. */
export async function upstreamData<T>(base: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(base + path, {
    method: body ? 'POST' : 'GET',
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = (await response.json()) as Envelope<T>;
  if (envelope.code !== 0) throw new Error(`${path}: code ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

export function homeCategories(base: string, catid: number) {
  return upstreamData<RawCategoryIndex>(base, '/mobile/index/category_index', { catid }).then((data) => data.children);
}

export function articleList(base: string, catid: number, page = 1, pageSize = 8) {
  return upstreamData<RawArticleList>(base, `/list/${catid}/${page}.html?pagesize=${pageSize}`);
}

export function article(base: string, catid: number, id: number) {
  return upstreamData<RawArticleDetail>(base, `/show/${catid}-${id}.html`);
}

/** The list entry at `position` of the first home category: what a reader would click first. */
export async function homeListEntry(base: string, position = 0) {
  const [category] = await homeCategories(base, HOME_CATID);
  if (!category) throw new Error('reference API has no home categories');
  const entry = (await articleList(base, category.catid)).lists[position];
  if (!entry) throw new Error(`category ${category.catid} has no article at ${position}`);
  return entry;
}

/** A real article of the first home category: what a reader would click first. */
export async function firstHomeArticle(base: string, homeCatid: number): Promise<RawArticleDetail> {
  const [category] = await homeCategories(base, homeCatid);
  if (!category) throw new Error('reference API has no home categories');
  const list = await articleList(base, category.catid);
  const first = list.lists[0];
  if (!first) throw new Error(`category ${category.catid} has no articles`);
  return article(base, first.catid, first.id);
}

/** The first article of the home categories that carries tags. */
export async function taggedArticle(base: string): Promise<RawArticleDetail> {
  for (const category of await homeCategories(base, HOME_CATID)) {
    for (const item of (await articleList(base, category.catid, 1, 20)).lists) {
      const detail = await article(base, item.catid, item.id);
      if (detail.tags.length > 0) return detail;
    }
  }
  throw new Error('no tagged article on the home categories');
}

/** The first `count` article pages of the home's categories, in order (`/detail/{catid}/{id}`). */
export async function articlePaths(base: string, count: number): Promise<string[]> {
  const paths: string[] = [];
  for (const category of await homeCategories(base, HOME_CATID)) {
    for (const entry of (await articleList(base, category.catid, 1, 20)).lists) paths.push(`/detail/${entry.catid}/${entry.id}`);
    if (paths.length >= count) break;
  }
  return paths.slice(0, count);
}
