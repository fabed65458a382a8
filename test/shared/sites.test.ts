import { ALL_SITES, MAIN_SITE, REGIONAL_SITES, homeCatidOf, normaliseHost, resolveSite } from '../../shared/sites';
import { HOME_CATID } from '../../shared/constants';

describe('resolveSite', () => {
  it('knows 22 regional sites with distinct ids and domains', () => {
    expect(REGIONAL_SITES).toHaveLength(22);
    expect(new Set(ALL_SITES.map((site) => site.domain)).size).toBe(23);
    expect(ALL_SITES.map((site) => site.id)).toEqual(Array.from({ length: 23 }, (_, i) => i));
  });

  it('maps each regional domain to its site, ignoring case, port and a trailing dot', () => {
    for (const site of REGIONAL_SITES) {
      expect(resolveSite(site.domain).id).toBe(site.id);
      expect(resolveSite(`${site.domain.toUpperCase()}:8080`).id).toBe(site.id);
      expect(resolveSite(`${site.domain}.`).id).toBe(site.id);
    }
  });

  it.each([undefined, '', 'localhost:3000', '127.0.0.1', 'evil.example', 'bj.qnnews.cn.evil.example', 'a b', 'bj.qnnews.cn/x'])(
    'falls back to the main site for %p',
    (host) => {
      expect(resolveSite(host)).toBe(MAIN_SITE);
    },
  );

  it('rejects hosts that are not plain names', () => {
    expect(normaliseHost('bj.qnnews.cn\r\nX: y')).toBe('');
  });

  it('uses the main home categories for a site whose catid is 0', () => {
    const zero = REGIONAL_SITES.find((site) => site.catid === 0);
    const own = REGIONAL_SITES.find((site) => site.catid > 0);
    expect(zero && homeCatidOf(zero)).toBe(HOME_CATID);
    expect(own && homeCatidOf(own)).toBe(own?.catid);
  });
});
