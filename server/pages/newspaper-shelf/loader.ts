/** /electronic lists the papers with their latest issues; /newspaperBoard shows every page of the latest issue of the first paper. */
import type { NewspaperIssue } from '../../../shared/types/entities';
import { siteTitle } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type NewspaperShelfData } from '../../../shared/pages/newspaper-shelf/route';

const ALL_PAPERS = 0;
/**
 * The papers the shelf shows, each with all its pages: a bound of the page's own (docs/pages.md), since the issues
 * asked for may each be of another paper. Two real papers; the CMS's first ones are kept.
 */
export const SHELF_PAPERS_MAX = 8;

export const loadNewspaperShelf: Loader<NewspaperShelfData> = async ({ site, content }) => {
  const all = await content.newspapers(ALL_PAPERS, '', 1, 50);
  const latest = new Map<number, NewspaperIssue>();
  for (const issue of all.list) if (!latest.has(issue.catid) && latest.size < SHELF_PAPERS_MAX) latest.set(issue.catid, issue);
  if (latest.size === 0) return { kind: 'not-found' };
  return {
    kind: 'ok',
    data: { latest: [...latest.values()] },
    head: { title: siteTitle('电子报', site), description: `${site.seo_title}电子报`, keywords: '电子报,读报' },
  };
};

export default definePageLoaders(route, { electronic: loadNewspaperShelf, newspaperBoard: loadNewspaperShelf });
