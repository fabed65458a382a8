/** Article detail (/detail/{catid}/{id}): the article and the detail layout's ad groups. */
import type { AdGroups, Article } from '../types/entities';
import { idParam } from '../route-params';
import type { Loader } from './types';

export interface DetailData {
  article: Article;
  ads: AdGroups;
}

const TITLE_SEPARATOR = ' - ';

export const loadDetail: Loader<DetailData> = async ({ params, site, content }) => {
  const catid = idParam(params, 'catid');
  const id = idParam(params, 'id');
  if (catid === undefined || id === undefined) return { kind: 'not-found' };
  const [article, ads] = await Promise.all([content.article(catid, id), content.adGroups(catid)]);
  if (!article) return { kind: 'not-found' };
  return {
    kind: 'ok',
    data: { article, ads },
    head: {
      title: `${article.fullTitle}${TITLE_SEPARATOR}${site.seo_title}`,
      description: article.description,
      keywords: article.keywords || site.seo_keywords,
    },
  };
};
