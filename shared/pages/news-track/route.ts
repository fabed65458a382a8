/** /newsTrack/{id}: a news-tracking report, its updates in the order the story unfolded. */
import type { SpecialReport } from '../../types/entities';
import { definePage, withId } from '../define';

export type NewsTrackData = SpecialReport;

export default definePage<NewsTrackData>()('newsTrack', [withId('newsTrack')]);
