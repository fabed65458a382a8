/**
 * The CMS category tree and the header menu built from it. Catids the portal hard-codes (shared/constants.ts) and
 * the regional home catids (shared/sites.ts) are used verbatim; everything else is allocated in ranges that do not
 * collide with them. The menu deliberately contains the three misconfigured level-2 items docs/product.md §5 warns about.
 */
import type { RawCategory, RawMenuField } from '../../server/upstream/wire';
import {
  ABOUT_ID,
  BANNER_CATID,
  COLUMN_INTRODUCE_ID,
  CONTRIBUTE_ID,
  DETAIL_SIDE_CATID,
  ELECTRONIC_ID,
  HOME_CATID,
  HOT_NEWS_ID,
  MESSAGE_ID,
  MINGDI_DETAIL_ID,
  MINGDI_ID,
  MOVE_INTO_ID,
  PROVINCE_PARENT_CATID,
  SEEKING_REPORT_ID,
  YOUTHNEWS_DETAIL_ID,
  YOUTHNEWS_ID,
} from '../../shared/constants';
import { REGIONAL_SITES, type SiteConfig } from '../../shared/sites';
import type { ChannelKey } from './words';

/** How a leaf category's articles are written. */
export type ContentKind = 'news' | 'page' | 'electronic';

export interface ContentPlan {
  kind: ContentKind;
  /** One channel, or several to mix (hot news and side lists carry every kind of story). */
  channels: readonly ChannelKey[];
  region?: string;
  /** Title prefix such as '【视频】'. */
  prefix?: string;
  /** Key into PAGE_TITLES for single-page categories. */
  pageKey?: string;
  count: readonly [number, number];
  /** How many of the newest articles were published within the last 24 hours. */
  recent: number;
  /** Whether the newest article is under a minute old (exercises '刚刚'). */
  fresh?: boolean;
  /** Every article carries a thumb (banner carousels need one). */
  alwaysThumb?: boolean;
  /** Thumb size; lists use 3:2 by default. */
  thumbSize?: readonly [number, number];
}

export interface CategoryRecord {
  catid: number;
  catname: string;
  parentid: number;
  categoryDirectory: string;
  /** Template code as the CMS stores it; null when the 'template' field is missing altogether. */
  template: string | null;
  /** Free-form settings the CMS keeps next to the template. */
  extraFields: RawMenuField[];
  /** Null for containers: they list their descendants' articles but own none. */
  content: ContentPlan | null;
}

const HOME_BLOCKS: ReadonlyArray<readonly [number, string, string, ChannelKey]> = [
  [2728, '要闻', 'yaowen', 'shizheng'],
  [2729, '时政', 'shizheng', 'shizheng'],
  [2730, '社会', 'shehui', 'shehui'],
  [2731, '教育', 'jiaoyu', 'jiaoyu'],
  [2732, '科技', 'keji', 'keji'],
  [2733, '文化', 'wenhua', 'wenhua'],
  [2734, '体育', 'tiyu', 'tiyu'],
  [2735, '青年', 'qingnian', 'qingnian'],
];

interface MenuChildDef {
  catid: number;
  catname: string;
  dir: string;
  template: string | null;
  /**
   * The template a careless editor left instead (null: no 'template' field at all), served only when the
   * dataset is made with menu faults, so the editor's warnings of docs/product.md §5 can be seen and tested
   * while a reader of the default install meets a menu whose every entry leads somewhere.
   */
  faultyTemplate?: string | null;
  channel: ChannelKey;
  prefix?: string;
}

interface MenuGroupDef {
  catid: number;
  catname: string;
  dir: string;
  template: string;
  children: MenuChildDef[];
}

/** Level-1 menu channels other than home and the province parent; covers template codes 1–6 and 8. */
const MENU_GROUPS: readonly MenuGroupDef[] = [
  {
    catid: 2710,
    catname: '新闻',
    dir: 'xinwen',
    template: '1',
    children: [
      { catid: 2711, catname: '国内', dir: 'guonei', template: '1', channel: 'shehui' },
      { catid: 2712, catname: '国际', dir: 'guoji', template: '1', channel: 'guoji' },
      { catid: 2713, catname: '财经', dir: 'caijing', template: '2', channel: 'caijing' },
      { catid: 2714, catname: '法治', dir: 'fazhi', template: '1', channel: 'fazhi' },
      { catid: 2715, catname: '健康', dir: 'jiankang', template: '2', channel: 'jiankang' },
    ],
  },
  {
    catid: 2720,
    catname: '评论',
    dir: 'pinglun',
    template: '2',
    children: [
      { catid: 2721, catname: '青年说', dir: 'qingnianshuo', template: '2', channel: 'pinglun' },
      { catid: 2722, catname: '观点', dir: 'guandian', template: '1', channel: 'pinglun' },
      // With menu faults: no 'template' field at all ('二级菜单未指定模版…').
      { catid: 2723, catname: '锐评', dir: 'ruiping', template: '2', faultyTemplate: null, channel: 'pinglun' },
    ],
  },
  {
    catid: 2740,
    catname: '视频',
    dir: 'shipin',
    template: '1',
    children: [
      { catid: 2839, catname: '视刻', dir: 'shike', template: '6', channel: 'shehui', prefix: '【视频】' },
      { catid: 2741, catname: '微视频', dir: 'weishipin', template: '6', channel: 'wenhua', prefix: '【视频】' },
      // With menu faults: template 4 maps to an empty segment ('二级菜单未设置主页…').
      { catid: 2742, catname: '直播', dir: 'zhibo', template: '2', faultyTemplate: '4', channel: 'tiyu', prefix: '【直播】' },
    ],
  },
  {
    catid: 2750,
    catname: '专题',
    dir: 'zhuanti',
    template: '5',
    children: [
      { catid: 2751, catname: '全国两会', dir: 'lianghui', template: '5', channel: 'shizheng' },
      { catid: 2752, catname: '青春中国', dir: 'qingchun', template: '5', channel: 'qingnian' },
      // With menu faults: template field present but empty ('二级菜单未指定主页模版…').
      { catid: 2753, catname: '专题报道', dir: 'zhuantibaodao', template: '5', faultyTemplate: '', channel: 'shehui' },
      { catid: 2754, catname: '乡村振兴', dir: 'xiangcun', template: '8', channel: 'sannong' },
    ],
  },
  {
    catid: 2760,
    catname: '读报',
    dir: 'dubao',
    template: '1',
    children: [
      { catid: 2761, catname: '中国青年报', dir: 'zgqnb', template: '3', channel: 'shizheng' },
      { catid: 2762, catname: '青年参考', dir: 'qnck', template: '3', channel: 'guoji' },
    ],
  },
  {
    catid: 2770,
    catname: '校园',
    dir: 'xiaoyuan',
    template: '1',
    children: [
      { catid: 2771, catname: '高校', dir: 'gaoxiao', template: '1', channel: 'jiaoyu' },
      { catid: 2772, catname: '留学', dir: 'liuxue', template: '2', channel: 'jiaoyu' },
      { catid: 2773, catname: '就业', dir: 'jiuye', template: '1', channel: 'qingnian' },
    ],
  },
  {
    catid: 2780,
    catname: '文旅',
    dir: 'wenlv',
    template: '2',
    children: [
      { catid: 2781, catname: '文化', dir: 'wenhua', template: '1', channel: 'wenhua' },
      { catid: 2782, catname: '旅游', dir: 'lvyou', template: '1', channel: 'wenhua' },
      { catid: 2783, catname: '非遗', dir: 'feiyi', template: '2', channel: 'wenhua' },
    ],
  },
];

/** The six home blocks every regional site with its own catid has. */
const REGIONAL_BLOCKS: ReadonlyArray<readonly [string, string, ChannelKey, string?]> = [
  ['要闻', 'yaowen', 'shizheng'],
  ['民生', 'minsheng', 'shehui'],
  ['教育', 'jiaoyu', 'jiaoyu'],
  ['青年', 'qingnian', 'qingnian'],
  ['文旅', 'wenlv', 'wenhua'],
  ['视频', 'shipin', 'shehui', '【视频】'],
];

const SHARED_ROOT_CATID = 2701;
const MIXED: readonly ChannelKey[] = ['shizheng', 'shehui', 'jiaoyu', 'keji', 'wenhua', 'tiyu', 'qingnian', 'guoji'];

/** Regional block catids: 3400 + site id × 10 + block number, clear of every constant. */
export function regionalBlockCatid(site: SiteConfig, blockIndex: number): number {
  return 3400 + site.id * 10 + blockIndex + 1;
}

/** Regional sites that have their own home category (catid 0 means they reuse the main home). */
export function regionalSitesWithCatid(): SiteConfig[] {
  return REGIONAL_SITES.filter((site) => site.catid > 0);
}

export function subdomainOf(site: SiteConfig): string {
  return site.domain.split('.')[0] ?? '';
}

function seoField(catname: string): RawMenuField {
  return { name: 'seo_title', desc: `${catname}_青年新闻网` };
}

function news(channels: readonly ChannelKey[], count: readonly [number, number], recent: number, extra: Partial<ContentPlan> = {}): ContentPlan {
  return { kind: 'news', channels, count, recent, ...extra };
}

function page(pageKey: string): ContentPlan {
  return { kind: 'page', channels: ['shehui'], pageKey, count: [12, 12], recent: 0 };
}

class TreeBuilder {
  readonly records: CategoryRecord[] = [];
  private readonly seen = new Set<number>();

  add(record: Omit<CategoryRecord, 'extraFields'> & { extraFields?: RawMenuField[] }): void {
    if (this.seen.has(record.catid)) throw new Error(`duplicate catid ${record.catid}`);
    this.seen.add(record.catid);
    this.records.push({ extraFields: [seoField(record.catname)], ...record });
  }
}

function addHome(tree: TreeBuilder): void {
  tree.add({ catid: HOME_CATID, catname: '首页', parentid: 0, categoryDirectory: 'shouye', template: '7', content: null });
  HOME_BLOCKS.forEach(([catid, catname, dir, channel], index) => {
    tree.add({
      catid,
      catname,
      parentid: HOME_CATID,
      categoryDirectory: dir,
      template: '1',
      content: news([channel], [40, 60], 3, { fresh: index === 0 }),
    });
  });
}

function addMenuGroups(tree: TreeBuilder, menuFaults: boolean): void {
  for (const group of MENU_GROUPS) {
    tree.add({ catid: group.catid, catname: group.catname, parentid: 0, categoryDirectory: group.dir, template: group.template, content: null });
    for (const child of group.children) {
      const template = menuFaults && child.faultyTemplate !== undefined ? child.faultyTemplate : child.template;
      tree.add({
        catid: child.catid,
        catname: child.catname,
        parentid: group.catid,
        categoryDirectory: child.dir,
        template,
        content: news([child.channel], [24, 40], 1, child.prefix ? { prefix: child.prefix } : {}),
      });
    }
  }
}

function addProvinces(tree: TreeBuilder): void {
  tree.add({ catid: PROVINCE_PARENT_CATID, catname: '地方', parentid: 0, categoryDirectory: 'difang', template: '1', content: null });
  for (const site of regionalSitesWithCatid()) {
    tree.add({
      catid: site.catid,
      catname: site.name,
      parentid: PROVINCE_PARENT_CATID,
      categoryDirectory: subdomainOf(site),
      template: '8',
      content: null,
      extraFields: [seoField(site.name), { name: 'domain', desc: site.domain }],
    });
    REGIONAL_BLOCKS.forEach(([catname, dir, channel, prefix], index) => {
      tree.add({
        catid: regionalBlockCatid(site, index),
        catname,
        parentid: site.catid,
        categoryDirectory: dir,
        template: '1',
        content: news([channel], [12, 16], index === 0 ? 1 : 0, { region: site.name, ...(prefix ? { prefix } : {}) }),
      });
    });
  }
}

/** Categories the portal reaches by constant rather than through the menu. */
function addShared(tree: TreeBuilder): void {
  const root = SHARED_ROOT_CATID;
  tree.add({ catid: root, catname: '公共栏目', parentid: 0, categoryDirectory: 'gonggong', template: '1', content: null });
  const leaf = (catid: number, catname: string, dir: string, content: ContentPlan, parentid = root): void =>
    tree.add({ catid, catname, parentid, categoryDirectory: dir, template: '1', content });
  leaf(BANNER_CATID, '焦点图', 'jiaodiantu', news(['shizheng', 'qingnian'], [24, 24], 2, { alwaysThumb: true, thumbSize: [1296, 200] }));
  leaf(HOT_NEWS_ID, '热点新闻', 'redian', news(MIXED, [30, 30], 5, { fresh: true }));
  leaf(DETAIL_SIDE_CATID, '详情页推荐', 'tuijian', news(MIXED, [20, 20], 1));
  tree.add({ catid: MINGDI_ID, catname: '鸣笛', parentid: root, categoryDirectory: 'mingdi', template: '1', content: null });
  leaf(MINGDI_DETAIL_ID, '鸣笛评论', 'mingdipinglun', news(['pinglun'], [20, 30], 1), MINGDI_ID);
  tree.add({ catid: YOUTHNEWS_ID, catname: '青年报', parentid: root, categoryDirectory: 'qingnianbao', template: '3', content: null });
  leaf(YOUTHNEWS_DETAIL_ID, '青年报要闻', 'qingnianbaoyaowen', news(['qingnian', 'shizheng'], [20, 30], 1), YOUTHNEWS_ID);
  leaf(ELECTRONIC_ID, '电子报', 'dianzibao', { kind: 'electronic', channels: ['shizheng'], count: [16, 16], recent: 1 });
  leaf(COLUMN_INTRODUCE_ID, '专栏介绍', 'zhuanlan', page('columnIntro'));
  leaf(MESSAGE_ID, '留言板', 'liuyan', page('message'));
  leaf(ABOUT_ID, '关于我们', 'about', page('about'));
  leaf(CONTRIBUTE_ID, '我要投稿', 'tougao', page('contribute'));
  leaf(SEEKING_REPORT_ID, '我要报料', 'baoliao', page('seekingReport'));
  leaf(MOVE_INTO_ID, '申请入驻', 'ruzhu', page('moveInto'));
}

/** The level-2 entries an editor got wrong, by catid: the template served instead while menu faults are on. */
export const MENU_FAULTS: ReadonlyMap<number, string | null> = new Map(
  MENU_GROUPS.flatMap((group) => group.children.flatMap((child) => (child.faultyTemplate === undefined ? [] : [[child.catid, child.faultyTemplate] as const]))),
);

/** The record as served while menu faults are on: the template its editor got wrong, where it has one. */
export function withMenuFault(record: CategoryRecord): CategoryRecord {
  return MENU_FAULTS.has(record.catid) ? { ...record, template: MENU_FAULTS.get(record.catid)! } : record;
}

/** `menuFaults`: three level-2 entries carry the templates an editor got wrong (see MenuChildDef.faultyTemplate). */
export function buildCategoryTree(menuFaults = false): CategoryRecord[] {
  const tree = new TreeBuilder();
  addHome(tree);
  addMenuGroups(tree, menuFaults);
  addProvinces(tree);
  addShared(tree);
  return tree.records;
}

/** newfield as the CMS sends it: settings first, template (when configured) last, so order cannot be relied on. */
export function newfieldOf(record: CategoryRecord): RawMenuField[] {
  const fields = record.extraFields.map((field) => ({ ...field }));
  if (record.template !== null) fields.push({ name: 'template', desc: record.template });
  return fields;
}

export function toRawCategory(record: CategoryRecord, children: RawCategory[]): RawCategory {
  return {
    catid: record.catid,
    catname: record.catname,
    parentid: record.parentid,
    categoryDirectory: record.categoryDirectory,
    newfield: newfieldOf(record),
    children,
  };
}

/** Header menu: home first, the content channels, then the province parent with its template-8 children. */
export function buildMenu(byId: Pick<ReadonlyMap<number, CategoryRecord>, 'get'>, childrenOf: ReadonlyMap<number, readonly number[]>): RawCategory[] {
  const level1 = [HOME_CATID, ...MENU_GROUPS.map((group) => group.catid), PROVINCE_PARENT_CATID];
  return level1.map((catid) => {
    const record = byId.get(catid);
    if (!record) throw new Error(`menu catid ${catid} missing from the tree`);
    // The home entry is a link, not a channel: its blocks are fetched through category_index, not shown in the menu.
    const childIds = catid === HOME_CATID ? [] : (childrenOf.get(catid) ?? []);
    const children = childIds.flatMap((childId) => {
      const child = byId.get(childId);
      return child ? [toRawCategory(child, [])] : [];
    });
    return toRawCategory(record, children);
  });
}
