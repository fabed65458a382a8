/**
 * Pages whose text editors keep in a CMS category (docs/product.md §9 ids): about (with its #contact section), contribute,
 * seekingReport and moveInto show the category's newest article as the page body.
 */
import { ABOUT_ID, CONTRIBUTE_ID, MOVE_INTO_ID, SEEKING_REPORT_ID } from '../../../shared/constants';
import { siteTitle } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type InfoPageData, type InfoPageKind } from '../../../shared/pages/info/route';

export const INFO_PAGES: Record<InfoPageKind, { catid: number; title: string }> = {
  about: { catid: ABOUT_ID, title: '关于我们' },
  contribute: { catid: CONTRIBUTE_ID, title: '我要投稿' },
  seekingReport: { catid: SEEKING_REPORT_ID, title: '需要报道' },
  moveInto: { catid: MOVE_INTO_ID, title: '入驻' },
};

export function infoPageLoader(kind: InfoPageKind): Loader<InfoPageData> {
  const { catid, title } = INFO_PAGES[kind];
  return async ({ site, content }) => {
    const list = await content.articleList(catid, 1, 1);
    const first = list.items[0];
    const article = first ? await content.article(first.catid, first.id) : null;
    return {
      kind: 'ok',
      data: { kind, title, article },
      head: { title: siteTitle(title, site), description: article?.description ?? site.seo_description, keywords: site.seo_keywords },
    };
  };
}

export default definePageLoaders(route, {
  about: infoPageLoader('about'),
  contribute: infoPageLoader('contribute'),
  moveInto: infoPageLoader('moveInto'),
  seekingReport: infoPageLoader('seekingReport'),
});
