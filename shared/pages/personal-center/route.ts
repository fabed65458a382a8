/**
 * /personalCenter: a visitor's copy is the same for every visitor; a signed-in reader's is rendered for them
 * (perReader), one section at a time chosen by ?tab= and paged by ?page= (the sections: shared/personal-center.ts).
 */
import type { PersonalCenterData } from '../../personal-center';
import { definePage, fixed } from '../define';

export type { PersonalCenterData } from '../../personal-center';

export default definePage<PersonalCenterData>()('personalCenter', [fixed('personalCenter', '/personalCenter', { query: ['tab', 'page'], perReader: true })]);
