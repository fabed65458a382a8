/** /license: the publisher's licences (证照信息), from the portal's own details; no data of its own. */
import { definePage, fixed } from '../define';

export type LicenseData = Record<string, never>;

export default definePage<LicenseData>()('license', [fixed('license', '/license')]);
