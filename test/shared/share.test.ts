import { isWechatBrowser, shareCard, shareLink, siteShareName } from '../../shared/share';

const SITE_TITLE = '青年新闻网 - 权威新闻 青春视角';
const base = { siteTitle: SITE_TITLE, siteName: '青年新闻网', fallbackImage: 'https://www.qnnews.cn/logo.png' };

describe('WeChat share card', () => {
  it('an article shares its headline, summary, image and address without the hash', () => {
    const card = shareCard({
      ...base,
      head: { title: `青年志愿者走进社区 - ${SITE_TITLE}`, description: '摘要', keywords: '', ogType: 'article', image: 'https://img.cn/a.jpg' },
      href: 'https://www.qnnews.cn/detail/1/2?from=timeline#top',
    });
    expect(card).toEqual({ title: '青年志愿者走进社区', desc: '摘要', link: 'https://www.qnnews.cn/detail/1/2?from=timeline', imgUrl: 'https://img.cn/a.jpg' });
  });

  it('the home page and other pages default to the site name (docs/product.md §7)', () => {
    const home = shareCard({ ...base, head: { title: SITE_TITLE, description: '站点描述', keywords: '' }, href: 'https://www.qnnews.cn/' });
    expect(home).toEqual({ title: '青年新闻网', desc: '青年新闻网', link: 'https://www.qnnews.cn/', imgUrl: base.fallbackImage });
    const about = shareCard({
      ...base,
      head: { title: `关于我们 - ${SITE_TITLE}`, description: '站点描述', keywords: '' },
      href: 'https://www.qnnews.cn/about',
    });
    expect(about).toMatchObject({ title: '关于我们', desc: '青年新闻网' });
  });

  it('knows WeChat by its user agent, and names regional sites', () => {
    expect(isWechatBrowser('Mozilla/5.0 (iPhone) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c)')).toBe(true);
    expect(isWechatBrowser('Mozilla/5.0 (X11; Linux x86_64) Chrome/120 Safari/537.36')).toBe(false);
    expect(shareLink('https://a.cn/x')).toBe('https://a.cn/x');
    expect(siteShareName({ name: '首页', isMain: true })).toBe('青年新闻网');
    expect(siteShareName({ name: '北京', isMain: false })).toBe('青年新闻网北京');
  });
});
