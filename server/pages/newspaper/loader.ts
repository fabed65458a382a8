/**
 * The e-paper (docs/product.md §2): /readNewspapers/{catid} and /readNewspapers_v2/{catid} show one issue of a paper, a page
 * (版面) at a time with its article areas (?date=YYYY-MM-DD&page=N).
 */
import { idParam } from '../../../shared/route-params';
import { siteTitle } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type NewspaperData } from '../../../shared/pages/newspaper/route';

const RECENT_ISSUES = 14;

function wantedPage(value: string | null): number | null {
  if (value === null) return 1;
  return /^[1-9]\d?$/.test(value) ? Number(value) : null;
}

export const loadNewspaper: Loader<NewspaperData> = async ({ params, query, site, content }) => {
  const catid = idParam(params, 'id');
  const date = query.get('date');
  const pageNo = wantedPage(query.get('page'));
  if (catid === undefined || pageNo === null || (date !== null && !/^\d{4}-\d{2}-\d{2}$/.test(date))) return { kind: 'not-found' };
  const recent = await content.newspapers(catid, '', 1, RECENT_ISSUES);
  const issue = date ? (recent.list.find((item) => item.issue_date === date) ?? (await content.newspapers(catid, date, 1, 1)).list[0]) : recent.list[0];
  const page = issue?.pages.find((candidate) => candidate.page_no === pageNo);
  if (!issue || !page) return { kind: 'not-found' };
  // Areas name article ids only; the detail route needs each article's category.
  const found = await Promise.all(page.areas.map((area) => content.articleById(area.article_id)));
  const articles = found.flatMap((item) => (item ? [{ id: item.id, catid: item.catid, title: item.fullTitle }] : []));
  return {
    kind: 'ok',
    data: { paperName: issue.paper_name, catid, issue, pageNo, recentDates: recent.list.map((item) => item.issue_date), articles },
    head: {
      title: siteTitle(`${issue.paper_name} ${issue.issue_date} 第${pageNo}版`, site),
      description: `${issue.paper_name}电子版`,
      keywords: `${issue.paper_name},电子报,读报`,
    },
  };
};

export default definePageLoaders(route, { 'readNewspapers_v2-id': loadNewspaper, 'readNewspapers-id': loadNewspaper });
