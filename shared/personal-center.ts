/**
 * The personal center's sections and addresses: what the page and its loader agree on. Browser-safe (no reading
 * of lists here; that is the loader's, on the server: server/pages/personal-center/loader.ts).
 */
import type { CollectedVideo } from './account-api';
import type { ArticleSummary, ColumnAuthor, Tag } from './types/entities';

export const PERSONAL_CENTER_PATH = '/personalCenter';
export const PERSONAL_PAGE_SIZE = 10;

export const PERSONAL_TABS = ['articles', 'videos', 'columns', 'tags', 'feedback'] as const;
export type PersonalTab = (typeof PERSONAL_TABS)[number];
export type ListTab = Exclude<PersonalTab, 'feedback'>;
export const DEFAULT_TAB: PersonalTab = 'articles';

/** One page of one of the reader's lists; 'unavailable' when the CMS could not say. */
export interface ListSection<Tab extends ListTab, T> {
  tab: Tab;
  status: 'ok' | 'unavailable';
  items: T[];
  page: number;
  lastPage: number;
  total: number;
}

export type PersonalSection =
  | ListSection<'articles', ArticleSummary>
  | ListSection<'videos', CollectedVideo>
  | ListSection<'columns', ColumnAuthor>
  | ListSection<'tags', Tag>
  | { tab: 'feedback' };

export type PersonalCenterData = { kind: 'visitor' } | { kind: 'member'; section: PersonalSection };

/** A `?tab=` value naming one of the sections. */
export function isTab(value: string): value is PersonalTab {
  return (PERSONAL_TABS as readonly string[]).includes(value);
}

/** The address of a section's page: the default tab and the first page leave their parameters out. */
export function personalCenterHref(tab: PersonalTab, page = 1): string {
  const query = new URLSearchParams();
  if (tab !== DEFAULT_TAB) query.set('tab', tab);
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return text ? `${PERSONAL_CENTER_PATH}?${text}` : PERSONAL_CENTER_PATH;
}
