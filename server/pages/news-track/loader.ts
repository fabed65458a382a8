/** /newsTrack/{id}: a news-tracking report, its updates in the order the story unfolded. */
import { idParam } from '../../../shared/route-params';
import { shareImageOf, siteTitle } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type NewsTrackData } from '../../../shared/pages/news-track/route';

export const loadNewsTrack: Loader<NewsTrackData> = async ({ params, site, content }) => {
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

export default definePageLoaders(route, { 'newsTrack-id': loadNewsTrack });
