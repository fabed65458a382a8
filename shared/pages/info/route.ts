/**
 * Pages whose text editors keep in a CMS category (docs/product.md §9 ids): about (with its #contact section),
 * contribute, seekingReport and moveInto show the category's newest article as the page body.
 */
import type { Article } from '../../types/entities';
import { definePage, fixed } from '../define';

export type InfoPageKind = 'about' | 'contribute' | 'seekingReport' | 'moveInto';

export interface InfoPageData {
  kind: InfoPageKind;
  title: string;
  article: Article | null;
}

const SMALL_FOOTER = { layout: 'smallFooter' } as const;

export default definePage<InfoPageData>()('info', [
  fixed('about', '/about'),
  fixed('contribute', '/contribute', SMALL_FOOTER),
  fixed('moveInto', '/moveInto', SMALL_FOOTER),
  fixed('seekingReport', '/seekingReport', SMALL_FOOTER),
]);
