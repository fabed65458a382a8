/** Home (/ and /home): the site's home categories with their latest articles, and the homepage ad slots. */
import { HOME_CATEGORY_LIST_SIZE } from '../constants';
import type { HomeAdSlot } from '../content-api';
import { homeCatidOf } from '../sites';
import { articleLink, type ArticleLink } from '../types/entities';
import type { Loader } from './types';

export interface HomeBlock {
  catid: number;
  catname: string;
  /** Links only: the page shows titles and times, so the hydration state carries no summaries or pictures. */
  items: ArticleLink[];
}

export interface HomeData {
  blocks: HomeBlock[];
  adSlots: HomeAdSlot[];
}

export const loadHome: Loader<HomeData> = async ({ site, content }) => {
  const homeCatid = homeCatidOf(site);
  const [categories, adSlots] = await Promise.all([content.categoryChildren(homeCatid), content.homeAdSlots(homeCatid)]);
  const lists = await Promise.all(
    categories.map((category) => content.articleList(category.catid, 1, HOME_CATEGORY_LIST_SIZE)),
  );
  const blocks = categories
    .map((category, index) => ({ catid: category.catid, catname: category.catname, items: (lists[index]?.items ?? []).map(articleLink) }))
    .filter((block) => block.items.length > 0);
  return {
    kind: 'ok',
    data: { blocks, adSlots },
    head: { title: site.seo_title, description: site.seo_description, keywords: site.seo_keywords },
  };
};
