/** Wire shapes (./wire.ts) → entities (shared/types/entities). Pure, so tested without HTTP. */
import type { HomeAdSlot } from '../../shared/content-api';
import type {
  Advertisement,
  AdGroups,
  ArticlePage,
  ArticleSummary,
  Category,
  ColumnAuthor,
  ColumnAuthorInfo,
  GreyMode,
  Paged,
  SpecialReport,
  TemplateCode,
  Topic,
} from '../../shared/types/entities';
import type {
  RawAdGroups,
  RawAdSlot,
  RawAdvertisement,
  RawArticleList,
  RawArticleListItem,
  RawCategory,
  RawColumnAuthor,
  RawColumnAuthorInfo,
  RawGreyMode,
  RawPagedList,
  RawSpecialReport,
  RawTopic,
} from './wire';

const TEMPLATE_CODES: readonly TemplateCode[] = [1, 2, 3, 4, 5, 6, 7, 8];

export function articleSummary(raw: RawArticleListItem): ArticleSummary {
  return {
    id: raw.id,
    catid: raw.catid,
    title: raw.list_title.trim() !== '' ? raw.list_title : raw.title,
    fullTitle: raw.title,
    description: raw.description,
    thumb: raw.thumb,
    adddate: raw.adddate,
    source: raw.source,
  };
}

/**
 * The CMS may send more than a page asks for (a broken or compromised one: 3000 items for a page of 20); a page
 * never holds more than it asked for (docs/pages.md, "Bounds on what the CMS sends").
 */
export function upTo<T>(items: readonly T[], pageSize: number): readonly T[] {
  return items.length > pageSize ? items.slice(0, Math.max(0, pageSize)) : items;
}

export function articlePage(raw: RawArticleList, pageSize: number): ArticlePage {
  return {
    items: upTo(raw.lists, pageSize).map(articleSummary),
    total: raw.total,
    page: raw.page,
    pageSize: raw.pagesize,
  };
}

export function templateOf(raw: RawCategory): TemplateCode | null {
  const field = raw.newfield.find((item) => item.name === 'template');
  if (!field) return null;
  const code = Number(field.desc);
  return (TEMPLATE_CODES as readonly number[]).includes(code) && field.desc.trim() !== '' ? (code as TemplateCode) : null;
}

/** The template field is distinguished from a missing one, because docs/product.md §5 warns differently for each. */
export function hasTemplateField(raw: RawCategory): boolean {
  return raw.newfield.some((item) => item.name === 'template');
}

export function category(raw: RawCategory): Category {
  return {
    catid: raw.catid,
    catname: raw.catname,
    parentid: raw.parentid,
    categoryDirectory: raw.categoryDirectory,
    template: templateOf(raw),
    templateField: hasTemplateField(raw),
    children: (raw.children ?? []).map(category),
  };
}

export function advertisement(raw: RawAdvertisement): Advertisement {
  return { id: raw.id, type: raw.ad_type, title: raw.title, image: raw.image, video: raw.video, href: raw.jump_url };
}

export function adGroups(raw: RawAdGroups): AdGroups {
  return {
    detailTop: raw.detailTop.map(advertisement),
    hotNewsTop: raw.hotNewsTop.map(advertisement),
    hotNewsBot: raw.hotNewsBot.map(advertisement),
    hotTopicBot: raw.hotTopicBot.map(advertisement),
    specialColBot: raw.specialColBot.map(advertisement),
  };
}

/**
 * A column's ad slots, one per position (the first the CMS lists): home has one place per position, so a repeated
 * position would only add carousels (100 slots of one position were 100 carousels in a row).
 */
export function homeAdSlots(raw: readonly RawAdSlot[]): HomeAdSlot[] {
  const byPosition = new Map<number, HomeAdSlot>();
  for (const slot of raw) if (!byPosition.has(slot.position)) byPosition.set(slot.position, { position: slot.position, ads: slot.list.map(advertisement) });
  return [...byPosition.values()];
}

export const EMPTY_AD_GROUPS: AdGroups = { detailTop: [], hotNewsTop: [], hotNewsBot: [], hotTopicBot: [], specialColBot: [] };

function jumpOf(extend: string): { switch_value_android: string } {
  try {
    const parsed: unknown = JSON.parse(extend);
    const value = (parsed as { switch_value_android?: unknown } | null)?.switch_value_android;
    return { switch_value_android: typeof value === 'string' ? value : '' };
  } catch {
    return { switch_value_android: '' };
  }
}

export function topic(raw: RawTopic): Topic {
  return { id: raw.id, title: raw.title, description: raw.description, thumb: raw.cover_image, jump: jumpOf(raw.extend) };
}

export function columnAuthor(raw: RawColumnAuthor): ColumnAuthor {
  return { id: raw.id, name: raw.name, avatar: raw.avatar, description: raw.description, subscribed: raw.subscribe_status === 1 };
}

export function paged<Raw, T>(raw: RawPagedList<Raw>, pageSize: number, item: (value: Raw) => T): Paged<T> {
  return { list: upTo(raw.list, pageSize).map(item), total: raw.total, page: raw.page, pageSize: raw.page_size };
}

export function pagedArticles(raw: RawPagedList<RawArticleListItem>, pageSize: number): ArticlePage {
  return { items: upTo(raw.list, pageSize).map(articleSummary), total: raw.total, page: raw.page, pageSize: raw.page_size };
}

export function columnAuthorInfo(raw: RawColumnAuthorInfo): ColumnAuthorInfo {
  return { ...columnAuthor(raw), title: raw.title, articleCount: raw.article_count };
}

export function specialReport(raw: RawSpecialReport): SpecialReport {
  return {
    id: raw.id,
    catid: raw.catid,
    title: raw.title,
    cover: raw.cover,
    description: raw.description,
    adddate: raw.adddate,
    ongoing: raw.status === 1,
    timeline: raw.articles.map((item) => ({ stage: item.stage, article: articleSummary(item) })),
  };
}

export function greyMode(raw: RawGreyMode | null): GreyMode {
  if (raw === '1') return 'layout';
  if (raw === '2') return 'home';
  return 'off';
}
