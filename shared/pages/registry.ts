/**
 * The list of pages (./index.ts) by page id, typed so that each entry's route names its own id and its component
 * takes its data: the compiler checks every line of the list against shared/page-data.ts, with no cast.
 *
 * Page components are bundled into the browser entry rather than split one chunk per page: a page chunk weighed
 * 1–2 KB and pulled in a dozen shared chunks of a few hundred bytes each (esbuild splits code shared by the entry
 * and a page into its own file), so every page paid ~20 requests for code it mostly needed anyway. What stays
 * split is what is large and self-contained: swiper (carousel-engine.ts) and hls.js (VideoPlayer.tsx). loadPage
 * stays asynchronous so a page can be split out again without touching its callers.
 */
import type { ComponentType } from 'react';
import type { PageData, PageId, PageRouteIdOf } from '../page-data';
import type { Page } from './define';
import * as pageList from './index';

export type PageComponent<P extends PageId> = ComponentType<{ data: PageData<P> }>;

export type PageEntry<P extends PageId> = Page<P, PageRouteIdOf<P>, PageData<P>>;

export const PAGES: { readonly [P in PageId]: PageEntry<P> } = pageList;

export async function loadPage<P extends PageId>(id: P): Promise<PageComponent<P>> {
  return PAGES[id].Component;
}

/** The component of a page. */
export function loadedPage<P extends PageId>(id: P): PageComponent<P> {
  return PAGES[id].Component;
}
