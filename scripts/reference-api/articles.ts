/**
 * Article generation. Publication times are drawn first for every category, then ids are handed out in
 * chronological order (a CMS auto-increments), and only then is each article written from its own forked random
 * stream, so changing one article's text generation never reshuffles the others.
 */
import { escapeHtml } from '../../server/platform/html';
import type { RawArticleDetail, RawTag } from '../../server/upstream/wire';
import type { CategoryRecord, ContentPlan } from './categories';
import { imagePath } from './media';
import type { Rng } from './random';
import {
  composeBody,
  composeDescription,
  composeHeadline,
  composeKeywords,
  personName,
  storyFacts,
  TITLE_MIN,
  type FigureSpec,
  type StoryContext,
} from './text';
import { PAGE_PARAGRAPHS, PAGE_TITLES, REGIONAL_SOURCES, SOURCES, TAGS, TAGS_BY_CHANNEL, type ChannelKey } from './words';

export const DAY_SECONDS = 86_400;
export const TWO_YEARS_SECONDS = 730 * DAY_SECONDS;
const FIRST_ARTICLE_ID = 30_001;

/** About 60% of articles have no list_title (docs/product.md §3: title is used then). */
const LIST_TITLE_RATE = 0.4;
const THUMB_RATE = 0.8;
const DIRTY_RATE = 0.02;

export const ALL_TAGS: readonly RawTag[] = TAGS.map((name, index) => ({ id: index + 1, name }));
const TAG_BY_NAME = new Map(ALL_TAGS.map((tag) => [tag.name, tag]));

/** 0–4 tags from the story's channel, so a tag page lists stories that belong together. */
function tagsFor(rng: Rng, channel: ChannelKey): RawTag[] {
  const pool = TAGS_BY_CHANNEL[channel].flatMap((name) => TAG_BY_NAME.get(name) ?? []);
  return rng.sample(pool, rng.int(0, 4)).map((tag) => ({ ...tag }));
}

const FIGURE_SIZES: ReadonlyArray<readonly [number, number]> = [
  [1080, 720],
  [1200, 675],
  [900, 600],
  [800, 1067],
];
const THUMB_SIZES: ReadonlyArray<readonly [number, number]> = [
  [600, 400],
  [640, 360],
];

interface Slot {
  category: CategoryRecord;
  plan: ContentPlan;
  /** 0 is the category's newest article. */
  rank: number;
  /** Seconds before `now`. */
  age: number;
}

/**
 * Ages for one category, newest first. The newest `recent` articles fall in the last day (the second of them in the
 * last hour); the rest spread over two years, denser towards the present like a real archive.
 */
function agesFor(rng: Rng, plan: ContentPlan, count: number): number[] {
  const ages = Array.from({ length: count }, (_, index) =>
    index < plan.recent ? rng.int(3600, DAY_SECONDS - 1) : DAY_SECONDS + Math.floor((TWO_YEARS_SECONDS - DAY_SECONDS - 1) * rng.next() ** 1.7),
  ).sort((left, right) => left - right);
  if (plan.recent >= 2) ages[1] = rng.int(60, 3599);
  if (plan.fresh) ages[0] = rng.int(5, 50);
  return ages.sort((left, right) => left - right);
}

function planSlots(rng: Rng, categories: readonly CategoryRecord[]): Slot[] {
  const slots: Slot[] = [];
  for (const category of categories) {
    const plan = category.content;
    if (!plan) continue;
    const count = rng.int(plan.count[0], plan.count[1]);
    agesFor(rng, plan, count).forEach((age, rank) => slots.push({ category, plan, rank, age }));
  }
  return slots;
}

/** Oldest first gets the smallest id; small gaps mimic deleted drafts. */
function assignIds(rng: Rng, slots: readonly Slot[]): Array<{ id: number; slot: Slot }> {
  const ordered = [...slots].sort((left, right) => right.age - left.age || left.category.catid - right.category.catid || right.rank - left.rank);
  let id = FIRST_ARTICLE_ID;
  return ordered.map((slot) => {
    const assigned = { id, slot };
    id += rng.chance(0.15) ? rng.int(2, 4) : 1;
    return assigned;
  });
}

function storyContext(rng: Rng, plan: ContentPlan): StoryContext {
  return {
    channel: rng.pick(plan.channels),
    ...(plan.region ? { region: plan.region } : {}),
    ...(plan.prefix ? { prefix: plan.prefix } : {}),
  };
}

function figures(rng: Rng, id: number, count: number): FigureSpec[] {
  return Array.from({ length: count }, (_, index) => {
    const [width, height] = rng.pick(FIGURE_SIZES);
    return { src: imagePath(`a${id}f${index + 1}`, width, height), width, height };
  });
}

function thumbFor(rng: Rng, id: number, plan: ContentPlan): string {
  if (!plan.alwaysThumb && !rng.chance(THUMB_RATE)) return '';
  const [width, height] = plan.thumbSize ?? rng.pick(THUMB_SIZES);
  return imagePath(`a${id}`, width, height);
}

function sourceFor(rng: Rng, plan: ContentPlan): string {
  if (plan.kind === 'page') return '青年新闻网';
  if (plan.region && rng.chance(0.6)) return rng.pick(REGIONAL_SOURCES).replace('{region}', plan.region);
  return rng.pick(SOURCES);
}

/** The desk editor who signed the article off (责任编辑); pages are the newsroom's own. */
function editorFor(rng: Rng, plan: ContentPlan): string {
  return plan.kind === 'page' ? '青年新闻网编辑部' : personName(rng);
}

function authorFor(rng: Rng, plan: ContentPlan): string {
  if (plan.kind === 'page') return '青年新闻网';
  return rng.chance(0.35) ? `${personName(rng)} ${personName(rng)}` : personName(rng);
}

/** Views skew low with a long tail, like real traffic. */
function viewsFor(rng: Rng): number {
  return Math.floor(120 * 1500 ** rng.next());
}

function shanghaiDate(unixSeconds: number): { year: number; month: string; day: string } {
  const date = new Date((unixSeconds + 8 * 3600) * 1000);
  const pad = (value: number): string => String(value).padStart(2, '0');
  return { year: date.getUTCFullYear(), month: pad(date.getUTCMonth() + 1), day: pad(date.getUTCDate()) };
}

interface Written {
  title: string;
  short: string;
  description: string;
  content: string;
}

function writePage(rng: Rng, slot: Slot, id: number): Written {
  const titles = PAGE_TITLES[slot.plan.pageKey ?? ''] ?? [];
  const name = titles[slot.rank] ?? `网站公告（${slot.rank + 1}）`;
  // Page names are short ('关于我们'); the CMS titles them with the site name to stay within the 8–30 limit.
  const title = name.length >= TITLE_MIN ? name : `${name}｜青年新闻网`;
  const paragraphs = rng.sample(PAGE_PARAGRAPHS, rng.int(4, 6)).map((text) => `<p>${escapeHtml(text)}</p>`);
  const [width, height] = rng.pick(FIGURE_SIZES);
  const src = imagePath(`a${id}f1`, width, height);
  const caption = escapeHtml(title);
  paragraphs.splice(1, 0, `<figure><img src="${src}" width="${width}" height="${height}" alt="${caption}"><figcaption>${caption}</figcaption></figure>`);
  return {
    title,
    short: '',
    description: `${title}。青年新闻网是中国青年报社主办的全国性新闻网站，坚持权威、及时、青春的内容定位，欢迎广大读者监督指正。`,
    content: paragraphs.join('\n'),
  };
}

function writeStory(rng: Rng, ctx: StoryContext, slot: Slot, id: number, adddate: number): Written {
  const headline = composeHeadline(rng, ctx, storyFacts(rng, ctx));
  let title = headline.title;
  if (slot.plan.kind === 'electronic') {
    const { year, month, day } = shanghaiDate(adddate);
    title = `《中国青年报》${year}年${month}月${day}日 第${String(rng.int(1, 12)).padStart(2, '0')}版`;
  }
  const content = composeBody(rng, {
    ...ctx,
    adddate,
    figures: figures(rng, id, rng.int(1, 3)),
    dirty: rng.chance(DIRTY_RATE),
  });
  return { title, short: headline.short, description: composeDescription(rng, ctx, headline.facts), content };
}

function writeArticle(rng: Rng, id: number, slot: Slot, now: number): RawArticleDetail {
  const adddate = now - slot.age;
  const ctx = storyContext(rng, slot.plan);
  const written = slot.plan.kind === 'page' ? writePage(rng, slot, id) : writeStory(rng, ctx, slot, id, adddate);
  const useShort = slot.plan.kind === 'news' && written.short !== '' && rng.chance(LIST_TITLE_RATE);
  return {
    id,
    catid: slot.category.catid,
    title: written.title,
    list_title: useShort ? written.short : '',
    description: written.description,
    thumb: thumbFor(rng, id, slot.plan),
    adddate,
    source: sourceFor(rng, slot.plan),
    catname: slot.category.catname,
    author: authorFor(rng, slot.plan),
    keywords: slot.plan.kind === 'page' ? '青年新闻网' : composeKeywords(rng, ctx),
    content: written.content,
    views: viewsFor(rng),
    tags: slot.plan.kind === 'page' ? [] : tagsFor(rng, ctx.channel),
    // Its own stream, so adding the field left every other generated value as it was.
    editor: editorFor(rng.fork('editor'), slot.plan),
  };
}

/** Every article of the dataset, ordered by id (oldest first). */
export function generateArticles(rng: Rng, categories: readonly CategoryRecord[], now: number): RawArticleDetail[] {
  const slots = planSlots(rng.fork('article-slots'), categories);
  const assigned = assignIds(rng.fork('article-ids'), slots);
  return assigned.map(({ id, slot }) => writeArticle(rng.fork(`article-${id}`), id, slot, now)).sort((left, right) => left.id - right.id);
}
