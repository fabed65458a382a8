/** /electronic lists the papers with their latest issues; /newspaperBoard shows the latest issue of the first paper. */
import type { NewspaperIssue } from '../../types/entities';
import { definePage, fixed } from '../define';

export interface NewspaperShelfData {
  /** The newest issue of each paper. */
  latest: NewspaperIssue[];
}

export default definePage<NewspaperShelfData>()('newspaperShelf', [fixed('electronic', '/electronic'), fixed('newspaperBoard', '/newspaperBoard')]);
