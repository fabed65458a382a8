/** /license: the publisher's licences, from what every page already has; the page needs no data. */
import { siteTitle } from '../helpers';
import type { Loader } from '../types';
import { definePageLoaders } from '../define';
import route, { type LicenseData } from '../../../shared/pages/license/route';

export const loadLicense: Loader<LicenseData> = async ({ site }) => ({
  kind: 'ok',
  data: {},
  head: { title: siteTitle('证照信息', site), description: `${site.seo_title}证照信息`, keywords: site.seo_keywords },
});

export default definePageLoaders(route, { license: loadLicense });
