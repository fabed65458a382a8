import { MENU_WARNINGS, menuEntries, menuTarget } from '../../shared/menu';
import { REGIONAL_SITES } from '../../shared/sites';
import type { Category, TemplateCode } from '../../shared/types/entities';

function node(catid: number, template: TemplateCode | null, extra: Partial<Category> = {}): Category {
  return {
    catid,
    catname: `栏目${catid}`,
    parentid: 0,
    categoryDirectory: `dir${catid}`,
    template,
    templateField: template !== null,
    children: [],
    ...extra,
  };
}

describe('menu template rules (docs/product.md §2 Header, §5)', () => {
  it('does nothing for level-1 items with template 1, 2 or 5', () => {
    for (const template of [1, 2, 5] as const) expect(menuTarget(node(1, template), null, true)).toEqual({ kind: 'none' });
  });

  it('sends template 7 to the main site home', () => {
    expect(menuTarget(node(1, 7), null, true)).toEqual({ kind: 'link', href: '/', external: false });
    expect(menuTarget(node(1, 7), null, false)).toEqual({ kind: 'link', href: 'https://www.qnnews.cn/', external: true });
  });

  it('links level-2 items under their menu and sub directories where the route has that form', () => {
    const parent = node(10, 1, { categoryDirectory: 'shizheng' });
    expect(menuTarget(node(11, 1, { categoryDirectory: 'guonei' }), parent, true)).toEqual({
      kind: 'link',
      href: '/shizheng/guonei/V1/11',
      external: false,
    });
    expect(menuTarget(node(12, 5), parent, true)).toEqual({ kind: 'link', href: '/topic/12', external: false });
    expect(menuTarget(node(13, 6), parent, true)).toEqual({ kind: 'link', href: '/shike/13', external: false });
  });

  it('sends templates 3 and 8 to the main domain from a regional site', () => {
    const parent = node(10, 2, { categoryDirectory: 'baozhi' });
    expect(menuTarget(node(14, 3), parent, false)).toEqual({
      kind: 'link',
      href: 'https://www.qnnews.cn/readNewspapers/14',
      external: true,
    });
    expect(menuTarget(node(14, 3), parent, true)).toEqual({ kind: 'link', href: '/readNewspapers/14', external: false });
    expect(menuTarget(node(15, 8, { categoryDirectory: 'zt' }), parent, false)).toEqual({
      kind: 'link',
      href: 'https://www.qnnews.cn/baozhi/zt/topicDetail/15',
      external: true,
    });
  });

  it('warns verbatim about misconfigured level-2 items', () => {
    const parent = node(10, 1);
    expect(menuTarget(node(20, null), parent, true)).toEqual({ kind: 'warning', message: MENU_WARNINGS.noTemplate });
    expect(menuTarget(node(21, 4), parent, true)).toEqual({ kind: 'warning', message: MENU_WARNINGS.noHomepage });
    expect(menuTarget(node(22, null, { templateField: true }), parent, true)).toEqual({
      kind: 'warning',
      message: MENU_WARNINGS.noHomepageTemplate,
    });
    expect(MENU_WARNINGS).toEqual({
      noTemplate: '二级菜单未指定模版，请联系后台管理人员',
      noHomepage: '二级菜单未设置主页请联系后台管理人员',
      noHomepageTemplate: '二级菜单未指定主页模版，请联系后台管理人员',
    });
  });

  it('sends a province entry (template 8 under 3257) to that province site, from any site', () => {
    const provinces = node(3257, 1, { categoryDirectory: 'difang' });
    const beijing = REGIONAL_SITES.find((site) => site.name === '北京')!;
    for (const onMainSite of [true, false]) {
      expect(menuTarget(node(beijing.catid, 8, { categoryDirectory: 'bj' }), provinces, onMainSite)).toEqual({
        kind: 'link',
        href: `https://${beijing.domain}/`,
        external: true,
      });
    }
    // A template-8 entry elsewhere is a topic page.
    expect(menuTarget(node(2754, 8, { categoryDirectory: 'xiangcun' }), node(2750, 5, { categoryDirectory: 'zhuanti' }), true)).toEqual({
      kind: 'link',
      href: '/zhuanti/xiangcun/topicDetail/2754',
      external: false,
    });
  });
});

describe('the menu the page state carries', () => {
  it('keeps each item name with its worked-out target, and children only where there are some', () => {
    const menu = [
      node(1, 7),
      node(10, 1, {
        categoryDirectory: 'shizheng',
        children: [node(11, 1, { categoryDirectory: 'guonei', parentid: 10 }), node(12, null, { parentid: 10 }), node(13, 4, { parentid: 10 })],
      }),
    ];
    expect(menuEntries(menu, true)).toEqual([
      { catid: 1, catname: '栏目1', href: '/' },
      {
        catid: 10,
        catname: '栏目10',
        children: [
          { catid: 11, catname: '栏目11', href: '/shizheng/guonei/V1/11' },
          { catid: 12, catname: '栏目12', warning: MENU_WARNINGS.noTemplate },
          { catid: 13, catname: '栏目13', warning: MENU_WARNINGS.noHomepage },
        ],
      },
    ]);
    // A regional site links home on the main domain.
    expect(menuEntries([node(1, 7)], false)).toEqual([{ catid: 1, catname: '栏目1', href: 'https://www.qnnews.cn/' }]);
  });
});
