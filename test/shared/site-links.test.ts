/** Which hrefs navigate inside the app: pages of the route table on the current site's own domain only. */
import { appPathOf } from '../../shared/site-links';
import { MAIN_DOMAIN, REGIONAL_SITES } from '../../shared/sites';

const REGIONAL = REGIONAL_SITES[0]!.domain;

describe('appPathOf', () => {
  it.each([
    ['/electronic', MAIN_DOMAIN, '/electronic'],
    ['/hd', REGIONAL, '/hd'],
    ['/about#recruitment', MAIN_DOMAIN, '/about#recruitment'],
    [`https://${MAIN_DOMAIN}/about#recruitment`, MAIN_DOMAIN, '/about#recruitment'],
    [`http://${MAIN_DOMAIN}/detail/2728/33727?from=ad`, MAIN_DOMAIN, '/detail/2728/33727?from=ad'],
    [`//${REGIONAL}/V1/2728`, REGIONAL, '/V1/2728'],
    ['/news/sub/V2/2730', MAIN_DOMAIN, '/news/sub/V2/2730'],
  ])('%s on %s is the app path %s', (href, domain, expected) => {
    expect(appPathOf(href, domain)).toBe(expected);
  });

  it.each([
    ['https://m.qnnews.cn/app', MAIN_DOMAIN],
    [`https://${MAIN_DOMAIN}/about#recruitment`, REGIONAL],
    ['/rss/2728.xml', MAIN_DOMAIN],
    ['/login/wechat?return=%2F', MAIN_DOMAIN],
    ['/detail/12/abc', MAIN_DOMAIN],
    ['/V1', MAIN_DOMAIN],
    ['mailto:hr@qnnews.cn', MAIN_DOMAIN],
    ['javascript:alert(1)', MAIN_DOMAIN],
    ['http://[bad', MAIN_DOMAIN],
  ])('%s on %s loads a new document', (href, domain) => {
    expect(appPathOf(href, domain)).toBeNull();
  });
});
