/** Which hrefs navigate inside the app: pages of the route table on the current site's own domain only. */
import { appPathByParse, appPathOf } from '../../shared/site-links';
import { MAIN_DOMAIN, REGIONAL_SITES } from '../../shared/sites';
import { generatedPaths, seeded, TRICKY } from '../support/generated-paths';

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

describe('appPathOf without a URL parse for plain paths', () => {
  /** Paths of the app's own routes, some with a piece a URL parser rewrites, refuses or reads as a delimiter. */
  function generatedHrefs(count: number): string[] {
    const random = seeded(20261125);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const pages = ['/home', '/detail/2728/33727', '/list/2728/2', '/V1/2728', '/news/sub/V2/2730', '/search/5paw6Ze7/1', '/about', '/'];
    const forms = [(path: string) => path, (path: string) => `https://${MAIN_DOMAIN}${path}`, (path: string) => `//${MAIN_DOMAIN}${path}`];
    return Array.from({ length: count }, () => {
      let path = pick(pages);
      if (random() < 0.5) {
        const at = 1 + Math.floor(random() * (path.length - 1));
        path = path.slice(0, at) + pick([...TRICKY, '?from=ad', '#top', '/']) + path.slice(at);
      }
      return pick(forms)(path);
    });
  }

  it('gives what the URL parse gives on every generated href, in the app or not', () => {
    const hrefs = [...generatedHrefs(10000), ...generatedPaths(10000, 20261126)];
    const differing = hrefs.filter((href) => appPathOf(href, MAIN_DOMAIN) !== appPathByParse(href, MAIN_DOMAIN));
    expect(differing).toEqual([]);
    // Both answers are exercised: many hrefs stay in the app, many load a new document.
    const inApp = hrefs.filter((href) => appPathByParse(href, MAIN_DOMAIN) !== null).length;
    expect(inApp).toBeGreaterThan(hrefs.length / 5);
    expect(inApp).toBeLessThan(hrefs.length * 0.8);
  });
});
