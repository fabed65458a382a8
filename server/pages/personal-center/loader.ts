/**
 * The personal center (docs/product.md §1, §6). A visitor gets the same page as every other visitor (cached like any
 * anonymous page): what signing in gives. A signed-in reader gets one section at a time, chosen by `?tab=` and
 * paged by `?page=`: collected articles (the default), collected videos, subscribed column authors, subscribed
 * tags, or the feedback form. The lists are read here, on the server, with the session's token (see
 * shared/account-api.ts), so they arrive in the first HTML with no flash and the token never reaches the page.
 */
import type { AccountApi, AccountList } from '../../../shared/account-api';
import { lastPage, pageFromQuery } from '../paging';
import { siteTitle } from '../helpers';
import type { Loader, LoaderResult } from '../types';
import { definePageLoaders } from '../define';
import route from '../../../shared/pages/personal-center/route';
import {
  DEFAULT_TAB,
  PERSONAL_CENTER_PATH,
  PERSONAL_PAGE_SIZE,
  isTab,
  type ListTab,
  type PersonalCenterData,
  type PersonalSection,
} from '../../../shared/personal-center';

type Fetch<T> = (account: AccountApi, page: number, size: number) => Promise<AccountList<T>>;

const FETCHES: { [Tab in ListTab]: Fetch<Extract<PersonalSection, { tab: Tab }>['items'][number]> } = {
  articles: (account, page, size) => account.collectedArticles(page, size),
  videos: (account, page, size) => account.collectedVideos(page, size),
  columns: (account, page, size) => account.subscribedAuthors(page, size),
  tags: (account, page, size) => account.subscribedTags(page, size),
};

type SectionResult = { kind: 'section'; section: PersonalSection } | { kind: 'signed-out' } | { kind: 'not-found' };

async function listSection<Tab extends ListTab>(tab: Tab, account: AccountApi, page: number): Promise<SectionResult> {
  const readSection = FETCHES[tab] as Fetch<unknown>;
  const answer = await readSection(account, page, PERSONAL_PAGE_SIZE);
  if (answer.kind === 'signed-out') return { kind: 'signed-out' };
  if (answer.kind === 'unavailable') {
    return { kind: 'section', section: { tab, status: 'unavailable', items: [], page, lastPage: page, total: 0 } as PersonalSection };
  }
  const last = lastPage(answer.page.total, PERSONAL_PAGE_SIZE);
  // Past the last page is a 404, as on every other paged list of the site.
  if (page > last) return { kind: 'not-found' };
  const section = { tab, status: 'ok', items: answer.page.list, page, lastPage: last, total: answer.page.total } as PersonalSection;
  return { kind: 'section', section };
}

export const loadPersonalCenter: Loader<PersonalCenterData> = async ({ site, query, account }) => {
  const head = { title: siteTitle('个人中心', site), description: site.seo_description, keywords: site.seo_keywords };
  const visitor: LoaderResult<PersonalCenterData> = { kind: 'ok', data: { kind: 'visitor' }, head };
  const tabParam = query.get('tab');
  const pageParam = query.get('page');
  // A visitor has one page; sections' addresses lead to it, so they never become cache entries of their own.
  if (!account) return tabParam !== null || pageParam !== null ? { kind: 'redirect', location: PERSONAL_CENTER_PATH } : visitor;
  const tab = tabParam ?? DEFAULT_TAB;
  const page = pageFromQuery(pageParam);
  if (!isTab(tab) || page === null) return { kind: 'not-found' };
  if (tab === 'feedback') return pageParam === null ? { kind: 'ok', data: { kind: 'member', section: { tab } }, head } : { kind: 'not-found' };
  const result = await listSection(tab, account, page);
  if (result.kind === 'not-found') return { kind: 'not-found' };
  if (result.kind === 'signed-out') return visitor;
  return { kind: 'ok', data: { kind: 'member', section: result.section }, head };
};

export default definePageLoaders(route, { personalCenter: loadPersonalCenter });
