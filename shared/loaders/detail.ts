/** Article detail (/detail/{catid}/{id}): the article and the detail layout's ad groups. */
import { PORTAL_INFO } from '../portal-info';
import type { SiteConfig } from '../sites';
import { isoDateTime } from '../time';
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
      ogType: 'article',
      feedCatid: article.catid,
      ...(article.thumb ? { image: article.thumb } : {}),
      jsonLd: newsArticleJsonLd(article, site),
    },
  };
};

/** schema.org NewsArticle, as search engines read it for Top Stories. */
function newsArticleJsonLd(article: Article, site: SiteConfig): Record<string, unknown> {
  const url = `https://${site.domain}/detail/${article.catid}/${article.id}`;
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: article.fullTitle,
    description: article.description,
    datePublished: isoDateTime(article.adddate),
    dateModified: isoDateTime(article.adddate),
    mainEntityOfPage: url,
    url,
    ...(article.thumb ? { image: [article.thumb] } : {}),
    articleSection: article.catname,
    keywords: article.keywords,
    author: article.author ? [{ '@type': 'Person', name: article.author }] : [{ '@type': 'Organization', name: PORTAL_INFO.name }],
    publisher: {
      '@type': 'Organization',
      name: PORTAL_INFO.name,
      logo: { '@type': 'ImageObject', url: `https://${site.domain}/logo.png` },
    },
  };
}
