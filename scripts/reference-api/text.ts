/**
 * Composes headlines, summaries and body HTML from the word banks. Length limits here are the ones the dataset
 * promises (title 8–30, description 40–120 characters) because the portal's list layouts are tuned to them.
 */
import { escapeHtml } from '../../server/platform/html';
import type { Rng } from './random';
import {
  ACHIEVEMENTS,
  BACKGROUND_SENTENCES,
  CHANNELS,
  CITIES_BY_REGION,
  COMMENT_PREFIXES,
  COUNTRIES,
  FUTURE_PLANS,
  GIVEN_NAMES,
  INDIRECT_VIEWS,
  PERIODS,
  OFFICIAL_ROLES,
  PERSON_ROLES,
  PHOTO_AGENCIES,
  PROVINCES,
  QUOTES,
  SUBHEADINGS,
  SURNAMES,
  type ChannelKey,
  type ChannelWords,
} from './words';

export const TITLE_MIN = 8;
export const TITLE_MAX = 30;
export const DESCRIPTION_MIN = 40;
export const DESCRIPTION_MAX = 120;

export interface StoryContext {
  channel: ChannelKey;
  /** Regional categories keep their stories in their own region. */
  region?: string;
  /** E.g. '【视频】' for video categories; counted in the title length. */
  prefix?: string;
}

export interface Headline {
  title: string;
  /** A shorter editor's headline, always shorter than title and different from it. */
  short: string;
  /** The facts the headline was finally written from (a retry may have drawn new ones). */
  facts: StoryFacts;
}

/** What an image reference in a body needs; the dataset decides the URL. */
export interface FigureSpec {
  src: string;
  width: number;
  height: number;
}

export interface BodyOptions extends StoryContext {
  adddate: number;
  figures: readonly FigureSpec[];
  /** Realistic CMS dirt the portal's sanitiser must strip (about 2% of bodies). */
  dirty: boolean;
}

export function personName(rng: Rng): string {
  return rng.pick(SURNAMES) + rng.pick(GIVEN_NAMES);
}

function words(ctx: StoryContext): ChannelWords {
  return CHANNELS[ctx.channel];
}

/** A place name for the story: the category's region (sometimes with a city), else any province or country. */
export function pickPlace(rng: Rng, ctx: StoryContext): string {
  if (ctx.region) {
    const cities = CITIES_BY_REGION[ctx.region] ?? [];
    return cities.length > 0 && rng.chance(0.4) ? ctx.region + rng.pick(cities) : ctx.region;
  }
  return ctx.channel === 'guoji' ? rng.pick(COUNTRIES) : rng.pick(PROVINCES);
}

/** The facts one story is about, so its headline, list headline and summary agree with each other. */
export interface StoryFacts {
  place: string;
  org: string;
  action: string;
  object: string;
  result: string;
}

export function storyFacts(rng: Rng, ctx: StoryContext): StoryFacts {
  const bank = words(ctx);
  return {
    place: pickPlace(rng, ctx),
    org: rng.pick(bank.orgs),
    action: rng.pick(bank.actions),
    object: rng.pick(bank.objects),
    result: rng.pick(bank.results),
  };
}

/** [headline, tighter phrasings of the same headline] */
type Candidate = readonly [string, readonly string[]];

function headlineCandidates(rng: Rng, ctx: StoryContext, facts: StoryFacts): Candidate[] {
  const { place, org, action, object, result } = facts;
  if (ctx.channel === 'pinglun') {
    const column = rng.pick(COMMENT_PREFIXES);
    return [
      [`${column}｜${action}${object}`, [`${action}${object}`]],
      [`${column}｜${object}${result}`, [`${object}${result}`, object]],
    ];
  }
  const [achievement, unit, min, max] = rng.pick(ACHIEVEMENTS);
  const statistic = `${place}${achievement}${rng.int(min, max)}${unit}`;
  return [
    [`${place}${action}${object}`, [object, `${place}${object}`]],
    [`${org}${action}${object}`, [object]],
    [`${place}${object}${result}`, [`${object}${result}`, `${place}${object}`]],
    [`${place}：${object}${result}`, [`${object}${result}`]],
    [`${rng.pick(PERIODS)}${statistic}`, [statistic]],
    [`${object}${result}`, [object]],
  ];
}

function withinTitleLimits(text: string): boolean {
  return text.length >= TITLE_MIN && text.length <= TITLE_MAX;
}

export function composeHeadline(rng: Rng, ctx: StoryContext, facts: StoryFacts = storyFacts(rng, ctx)): Headline {
  const prefix = ctx.prefix ?? '';
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const source = attempt === 0 ? facts : storyFacts(rng, ctx);
    const [text, shorts] = rng.pick(headlineCandidates(rng, ctx, source));
    const title = prefix + text;
    if (!withinTitleLimits(title)) continue;
    // An editor's list headline: a tighter phrasing of the same story (docs/product.md §3 list_title).
    const options = shorts.filter((short) => short.length >= 6 && short.length < title.length);
    if (options.length > 0) return { title, short: rng.pick(options), facts: source };
  }
  // Every bank entry is short, so this is unreachable in practice; it keeps the limits a hard guarantee.
  const object = words(ctx).objects[0] ?? '新闻';
  return { title: `${prefix}${object}最新进展`.slice(0, TITLE_MAX), short: object.slice(0, 6), facts };
}

function descriptionSentences(rng: Rng, facts: StoryFacts): string[] {
  return [
    `记者从${facts.org}获悉，${facts.place}${facts.object}${facts.result}。`,
    `${rng.pick(INDIRECT_VIEWS)}。`,
    rng.pick(BACKGROUND_SENTENCES),
    `下一步，相关部门将${rng.pick(FUTURE_PLANS)}。`,
  ];
}

export function composeDescription(rng: Rng, ctx: StoryContext, facts: StoryFacts = storyFacts(rng, ctx)): string {
  const [lead, ...others] = descriptionSentences(rng, facts);
  let text = '';
  // The lead sentence names the story; the others follow in any order.
  for (const sentence of [lead ?? '', ...rng.shuffle(others)]) {
    if (text.length >= DESCRIPTION_MIN && rng.chance(0.5)) break;
    if (text.length + sentence.length <= DESCRIPTION_MAX) text += sentence;
  }
  // Short banks could in theory leave us under the minimum; pad with background lines that still fit.
  for (const sentence of BACKGROUND_SENTENCES) {
    if (text.length >= DESCRIPTION_MIN) break;
    if (text.length + sentence.length <= DESCRIPTION_MAX) text += sentence;
  }
  return text;
}

export function composeKeywords(rng: Rng, ctx: StoryContext): string {
  const list = rng.sample(words(ctx).keywords, rng.int(2, 4));
  if (ctx.region) list.unshift(ctx.region);
  return list.join(',');
}

/** Officials speak for their organisation; everyone else is introduced by where they come from. */
function person(rng: Rng, ctx: StoryContext): string {
  if (rng.chance(0.5)) return `${rng.pick(words(ctx).orgs)}${rng.pick(OFFICIAL_ROLES)}${personName(rng)}`;
  return `来自${pickPlace(rng, ctx)}的${rng.pick(PERSON_ROLES)}${personName(rng)}`;
}

function statisticSentence(rng: Rng, ctx: StoryContext): string {
  const [achievement, unit, min, max] = rng.pick(ACHIEVEMENTS);
  const growth = (rng.int(12, 368) / 10).toFixed(1);
  return `${rng.pick(PERIODS)}，${pickPlace(rng, ctx)}累计${achievement}${rng.int(min, max)}${unit}，同比增长${growth}%。`;
}

function sentence(rng: Rng, ctx: StoryContext): string {
  const bank = words(ctx);
  switch (rng.int(0, 6)) {
    case 0:
      return `记者从${rng.pick(bank.orgs)}获悉，${pickPlace(rng, ctx)}${rng.pick(bank.objects)}${rng.pick(bank.results)}。`;
    case 1:
      return statisticSentence(rng, ctx);
    case 2:
      return `“${rng.pick(QUOTES)}。”${person(rng, ctx)}告诉记者。`;
    case 3:
      return `${person(rng, ctx)}表示，${rng.pick(INDIRECT_VIEWS)}。`;
    case 4:
      return `下一步，${rng.pick(bank.orgs)}将${rng.pick(FUTURE_PLANS)}。`;
    case 5:
      return `${pickPlace(rng, ctx)}${rng.pick(bank.actions)}${rng.pick(bank.objects)}，${rng.pick(bank.results)}。`;
    default:
      return rng.pick(BACKGROUND_SENTENCES);
  }
}

function paragraph(rng: Rng, ctx: StoryContext): string {
  const sentences = Array.from({ length: rng.int(2, 4) }, () => sentence(rng, ctx));
  const [first, ...rest] = sentences;
  // Editors bold the lead sentence now and then.
  const lead = rng.chance(0.12) ? `<strong>${escapeHtml(first ?? '')}</strong>` : escapeHtml(first ?? '');
  return `<p>${lead}${escapeHtml(rest.join(''))}</p>`;
}

/** Month and day in Asia/Shanghai (UTC+8, no daylight saving) for photo captions. */
function shanghaiMonthDay(unixSeconds: number): string {
  const date = new Date((unixSeconds + 8 * 3600) * 1000);
  return `${date.getUTCMonth() + 1}月${date.getUTCDate()}日`;
}

function figure(rng: Rng, options: BodyOptions, spec: FigureSpec, dirty: boolean): string {
  const caption = `${shanghaiMonthDay(options.adddate)}，${rng.pick(words(options).scenes)}。${rng.pick(PHOTO_AGENCIES)} ${personName(rng)} 摄`;
  const extra = dirty ? ' onerror="alert(document.cookie)"' : '';
  return (
    `<figure><img src="${spec.src}" width="${spec.width}" height="${spec.height}" alt="${escapeHtml(caption)}"${extra}>` +
    `<figcaption>${escapeHtml(caption)}</figcaption></figure>`
  );
}

type DirtKind = 'onerror' | 'script' | 'iframe' | 'style';

/** Dirt a real CMS accumulates from pasted HTML and old embed codes. */
function dirtBlock(rng: Rng, kind: Exclude<DirtKind, 'onerror'>): string {
  switch (kind) {
    case 'script':
      return `<script>var _hmt=_hmt||[];(function(){var hm=document.createElement("script");hm.src="https://hm.example.cn/hm.js?${rng.int(100000, 999999)}";document.body.appendChild(hm);})();</script>`;
    case 'iframe':
      return `<iframe src="javascript:alert('xss')" width="0" height="0" frameborder="0"></iframe>`;
    case 'style':
      return `<p style="color:#333333;font-size:16px;text-indent:2em;background:url(javascript:alert(1))">（本文转载自${rng.pick(
        PROVINCES,
      )}日报客户端，内容有删节）</p>`;
  }
}

export function composeBody(rng: Rng, options: BodyOptions): string {
  const blocks = Array.from({ length: rng.int(4, 10) }, () => paragraph(rng, options));
  if (blocks.length > 4 && rng.chance(0.3)) {
    blocks.splice(rng.int(2, blocks.length - 1), 0, `<h3>${escapeHtml(rng.pick(SUBHEADINGS))}</h3>`);
  }
  if (rng.chance(0.2)) {
    blocks.splice(rng.int(1, blocks.length), 0, `<blockquote><p>“${escapeHtml(rng.pick(QUOTES))}。”</p></blockquote>`);
  }
  const dirt: DirtKind | null = options.dirty ? rng.pick<DirtKind>(['onerror', 'script', 'iframe', 'style']) : null;
  // Figures go after the first paragraph at the earliest; inserting from the back keeps earlier positions valid.
  const positions = rng
    .sample(
      Array.from({ length: blocks.length }, (_, index) => index + 1),
      options.figures.length,
    )
    .sort((left, right) => right - left);
  positions.forEach((position, index) => {
    const figureIndex = options.figures.length - 1 - index;
    const spec = options.figures[figureIndex];
    if (spec) blocks.splice(position, 0, figure(rng, options, spec, dirt === 'onerror' && figureIndex === 0));
  });
  if (dirt !== null && dirt !== 'onerror') blocks.splice(rng.int(1, blocks.length), 0, dirtBlock(rng, dirt));
  return blocks.join('\n');
}
