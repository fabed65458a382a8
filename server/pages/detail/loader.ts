/** Article detail (/detail/{catid}/{id}): the article, related reading and the detail layout's ad groups. */
import { PORTAL_INFO } from '../../../shared/portal-info';
import { href } from '../../../shared/routes';
import { bodyImages, logoUrl, rasterImage, siteOrigin } from '../share-image';
import type { SiteConfig } from '../../../shared/sites';
import { isoDateTime } from '../../../shared/time';
import { articleLink, type Article } from '../../../shared/types/entities';
import { idParam } from '../../../shared/route-params';
import { siteTitle } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type DetailData } from '../../../shared/pages/detail/route';

export const RELATED_SIZE = 6;

export const loadDetail: Loader<DetailData> = async ({ params, site, content }) => {
  const catid = idParam(params, 'catid');
  const id = idParam(params, 'id');
  if (catid === undefined || id === undefined) return { kind: 'not-found' };
  const [article, ads, sameCategory] = await Promise.all([
    content.article(catid, id),
    content.adGroups(catid),
    content.articleList(catid, 1, RELATED_SIZE + 1),
  ]);
  if (!article) return { kind: 'not-found' };
  const related = sameCategory.items
    .filter((item) => item.id !== article.id)
    .slice(0, RELATED_SIZE)
    .map(articleLink);
  const image = rasterImage(site, [article.thumb, ...bodyImages(article.contentHtml)]);
  return {
    kind: 'ok',
    data: { article, related, ads },
    head: {
      title: siteTitle(article.fullTitle, site),
      description: article.description,
      keywords: article.keywords || site.seo_keywords,
      ogType: 'article',
      feedCatid: article.catid,
      ...(image ? { image } : {}),
      jsonLd: [newsArticleJsonLd(article, site, image), breadcrumbJsonLd(article, site)],
    },
  };
};

/** schema.org NewsArticle, as search engines read it for Top Stories. */
function newsArticleJsonLd(article: Article, site: SiteConfig, image: string | undefined): Record<string, unknown> {
  const url = `${siteOrigin(site)}${href.detail(article.catid, article.id)}`;
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: article.fullTitle,
    description: article.description,
    // Left out when the CMS sent no usable date: an absent property, never an invalid one.
    ...(article.adddate === null ? {} : { datePublished: isoDateTime(article.adddate), dateModified: isoDateTime(article.adddate) }),
    mainEntityOfPage: url,
    url,
    ...(image ? { image: [image] } : {}),
    articleSection: article.catname,
    keywords: article.keywords,
    author: article.author ? [authorJsonLd(article, site)] : [{ '@type': 'Organization', name: PORTAL_INFO.name }],
    ...(article.editor ? { editor: { '@type': 'Person', name: article.editor } } : {}),
    publisher: {
      '@type': 'Organization',
      name: PORTAL_INFO.name,
      logo: { '@type': 'ImageObject', url: logoUrl(site) },
    },
  };
}

/** The byline's person; a column author with the page the byline links, as search engines read an author's url. */
function authorJsonLd(article: Article, site: SiteConfig): Record<string, unknown> {
  const page = article.columnistId === null ? {} : { url: `${siteOrigin(site)}${href.specialColumnDetail(article.columnistId)}` };
  return { '@type': 'Person', name: article.author, ...page };
}

/** 首页 > 栏目 > 正文, as the page's breadcrumb shows it. */
function breadcrumbJsonLd(article: Article, site: SiteConfig): Record<string, unknown> {
  const origin = siteOrigin(site);
  const trail = [
    { name: '首页', url: `${origin}/` },
    { name: article.catname || '栏目', url: `${origin}${href.categoryList(article.catid)}` },
    { name: article.fullTitle, url: `${origin}${href.detail(article.catid, article.id)}` },
  ];
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((step, index) => ({ '@type': 'ListItem', position: index + 1, name: step.name, item: step.url })),
  };
}

export default definePageLoaders(route, { detail: loadDetail });
