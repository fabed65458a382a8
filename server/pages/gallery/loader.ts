/** /hd (picture stories) and /poster (posters): the curated 精品 items of one type, page by page. */
import { lastPage, pageFromQuery } from '../paging';
import { siteTitle } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type GalleryData } from '../../../shared/pages/gallery/route';

export const GALLERY_PAGE_SIZE = 12;

export function galleryLoader(kind: GalleryData['kind']): Loader<GalleryData> {
  const title = kind === 'hd' ? '高清图集' : '海报';
  return async ({ query, site, content }) => {
    const page = pageFromQuery(query.get('page'));
    if (page === null) return { kind: 'not-found' };
    const result = await content.boutique(kind === 'hd' ? 1 : 2, page, GALLERY_PAGE_SIZE);
    const last = lastPage(result.total, GALLERY_PAGE_SIZE);
    if (page > last) return { kind: 'not-found' };
    return {
      kind: 'ok',
      data: { kind, title, items: result.list, page, lastPage: last },
      head: { title: siteTitle(title, site), description: `${site.seo_title}${title}`, keywords: `${title},${site.seo_keywords}` },
    };
  };
}

export default definePageLoaders(route, { hd: galleryLoader('hd'), poster: galleryLoader('poster') });
