/**
 * The e-paper (docs/product.md §2): /readNewspapers/{catid} and /readNewspapers_v2/{catid} show one issue of a
 * paper, a page (版面) at a time with its article areas (?date=YYYY-MM-DD&page=N).
 */
import type { NewspaperIssue } from '../../types/entities';
import { definePage, withId } from '../define';

export interface NewspaperData {
  paperName: string;
  catid: number;
  issue: NewspaperIssue;
  pageNo: number;
  recentDates: string[];
  /** The shown page's articles, with the category their detail page lives under. */
  articles: Array<{ id: number; catid: number; title: string }>;
}

const ISSUE = { query: ['date', 'page'] };

export default definePage<NewspaperData>()('newspaper', [withId('readNewspapers_v2', ISSUE), withId('readNewspapers', ISSUE)]);
