/** /newsTrack/{id}: a news-tracking report, its updates in the order the story unfolded. */
import { idParam } from '../route-params';
import type { SpecialReport } from '../types/entities';
import { shareImageOf, siteTitle } from './helpers';
import type { Loader } from './types';

export const loadNewsTrack: Loader<SpecialReport> = async ({ params, site, content }) => {
  const id = idParam(params, 'id');
  if (id === undefined) return { kind: 'not-found' };
  const report = await content.specialReport(id);
  if (!report) return { kind: 'not-found' };
  return {
    kind: 'ok',
    data: report,
    head: {
      title: siteTitle(report.title, site),
      description: report.description,
      keywords: `${report.title},新闻追踪`,
      ...shareImageOf(site, [report.cover]),
    },
  };
};
