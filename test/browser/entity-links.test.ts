/**
 * Issue 38, item 1: an entity a page names (a tag, a column author, a topic, a live, a news-tracking report, a video
 * album) is a link to its own page wherever it appears. On one page of every kind of the route table (checked
 * against the table), a column author's article and its reading mode, hydrated in Chromium:
 * - every entry of the blocks that list entities (an article's tags, its byline, 热门专题, the topics' grid, 专栏 and
 *   the columnists' page, the lives, 新闻追踪, a video's albums) names an entity of its kind and links to that
 *   entity's page (a topic: its page or the CMS's jump to it, as the spec's topic item has it);
 * - no text on the page that is exactly an entity's name stands outside a link, but for the page's own h1 (the
 *   page of that entity) and a byline's author who has no page (only column authors do).
 * Faults are listed by page; a page with one is screenshotted into test-results/entity-links/.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { Dataset } from '../../scripts/reference-api/dataset';
import { href } from '../../shared/routes';
import { browserPortalSuite, gotoHydrated, screenshotTop, watchedPage } from '../support/browser';
import { pageIdsMissing, pagesOfEveryRoute } from '../support/page-kinds';
import { describeWithBrowser } from '../support/requirements';

const SCREENSHOTS = path.join(__dirname, '..', '..', 'test-results', 'entity-links');

type EntityKind = 'tag' | 'column author' | 'topic' | 'live' | 'news track' | 'album';

/** Where a name may lead: its page's path on this site, or (a topic's CMS jump) a URL of another site. */
type Targets = Map<string, Set<string>>;

/** Every entity of the dataset by kind, each name with the targets its link may have. */
type EntityIndex = Record<EntityKind, Targets>;

function add(targets: Targets, name: string, ...where: string[]): void {
  const known = targets.get(name) ?? new Set<string>();
  for (const target of where) known.add(target);
  targets.set(name, known);
}

/** A topic's jump as the CMS sends it (extend's switch_value_android), '' when it has none. */
function topicJump(extend: string): string {
  try {
    const parsed = JSON.parse(extend) as { switch_value_android?: unknown };
    return typeof parsed.switch_value_android === 'string' ? parsed.switch_value_android : '';
  } catch {
    return '';
  }
}

function entityIndex(dataset: Dataset): EntityIndex {
  const index: EntityIndex = { tag: new Map(), 'column author': new Map(), topic: new Map(), live: new Map(), 'news track': new Map(), album: new Map() };
  for (const tag of dataset.tags) add(index.tag, tag.name, href.tag(tag.id));
  for (const author of dataset.columnAuthors) add(index['column author'], author.name, href.specialColumnDetail(author.id));
  for (const topic of dataset.topics) add(index.topic, topic.title, href.topicDetail(topic.id), ...[topicJump(topic.extend)].filter(Boolean));
  for (const live of dataset.lives) add(index.live, live.title, href.live(live.id));
  for (const track of dataset.specials) add(index['news track'], track.title, href.newsTrack(track.id));
  for (const album of dataset.albums) add(index.album, album.title, href.videoAlbum(album.id));
  return index;
}

/** A block that lists entities of one kind: each `item` names one (the text of `name` in it) and links it. */
interface Block {
  what: string;
  kind: EntityKind;
  item: string;
  /** The element holding the name, inside the item; the item itself when absent. */
  name?: string;
}

const BLOCKS: readonly Block[] = [
  { what: 'an article’s tags', kind: 'tag', item: '.article__tags li' },
  { what: 'a byline', kind: 'column author', item: '.article__author' },
  { what: '热门专题', kind: 'topic', item: '.side-topics li', name: 'span' },
  { what: 'the topics’ grid', kind: 'topic', item: '.topic-card', name: '.topic-card__title' },
  { what: '专栏', kind: 'column author', item: '.column-list li', name: '.column-list__name' },
  { what: 'the columnists’ page', kind: 'column author', item: '.columnist-grid .columnist', name: '.columnist__name' },
  { what: 'a list of lives', kind: 'live', item: '.home-lives__item', name: '.home-lives__title' },
  { what: '新闻追踪', kind: 'news track', item: '.home-tracks__item', name: 'a' },
  { what: 'a video’s albums', kind: 'album', item: '.video-page__album' },
];

interface ShownEntry {
  name: string;
  /** The href of the link around the name (or the item's only link), resolved; '' without one. */
  link: string;
}

/** Each entry of a block on the page: its name and the link it has. */
function entriesOf(page: Page, block: Block): Promise<ShownEntry[]> {
  return page.$$eval(
    block.item,
    (items, nameSelector) =>
      items.map((item) => {
        const holder = nameSelector ? item.querySelector(nameSelector) : item;
        const anchor = holder?.closest('a') ?? item.querySelector('a');
        // A title may stand in book-title marks (a video's 《album》): the marks are punctuation, not the name.
        const name = (holder?.textContent ?? '').trim().replace(/^《(.+)》$/, '$1');
        return { name, link: anchor instanceof HTMLAnchorElement ? anchor.href : '' };
      }),
    block.name ?? '',
  );
}

/** A link's target as the index spells targets: a path (no query) on the page's own origin, else the whole URL. */
function targetOf(link: string, origin: string): string {
  const url = new URL(link);
  return url.origin === origin ? url.pathname : link;
}

/** What is wrong with a block's entries on the page, and whether the page had the block at all. */
async function blockFaults(page: Page, block: Block, index: EntityIndex, origin: string): Promise<{ shown: boolean; faults: string[] }> {
  const entries = await entriesOf(page, block);
  const faults = entries.flatMap(({ name, link }) => {
    const targets = index[block.kind].get(name);
    if (!targets) return [`${block.what}: "${name}" names no ${block.kind}`];
    if (!link) return [`${block.what}: "${name}" is no link`];
    return targets.has(targetOf(link, origin)) ? [] : [`${block.what}: "${name}" links ${link}, not its page (${[...targets].join(' or ')})`];
  });
  return { shown: entries.length > 0, faults };
}

/**
 * Text that is exactly an entity's name (in book-title marks or not), outside any link: a name a reader cannot
 * follow. Left out: the page's h1 (it is that entity's page), a button's name (订阅 names whom it subscribes to: a
 * control, not a mention), what no reader meets as text (scripts, the live region's announcements), and a byline,
 * checked against the article's data instead (bylineFaults), since any author may share a columnist's name.
 */
function unlinkedNames(page: Page, names: readonly string[]): Promise<string[]> {
  return page.evaluate((list) => {
    const known = new Set(list);
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').trim().replace(/^《(.+)》$/, '$1');
      const parent = node.parentElement;
      if (!known.has(text) || !parent || parent.closest('a, h1, button, .article__byline, script, style, template, noscript, [aria-live]')) continue;
      const where = parent.closest('[class]')?.className ?? parent.tagName.toLowerCase();
      found.push(`"${text}" as text in .${String(where).split(' ')[0]}`);
    }
    return found;
  }, names);
}

/** The byline's link on an article page: there exactly when the CMS names the author's column page. */
async function bylineFaults(page: Page, pagePath: string, dataset: Dataset): Promise<string[]> {
  const id = Number(/^\/(?:detail|detailReading)\/\d+\/(\d+)/.exec(pagePath)?.[1]);
  const article = dataset.articleById.get(id);
  if (!article) return [];
  const links = await page.$$eval('.article__byline a', (anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
  const expected = article.columnist_id ? [href.specialColumnDetail(article.columnist_id)] : [];
  return JSON.stringify(links) === JSON.stringify(expected)
    ? []
    : [`byline of ${article.author}: links ${JSON.stringify(links)}, not ${JSON.stringify(expected)}`];
}

/** Every fault of the page, as `path: fault`; the page is screenshotted when it has any, for a person to see. */
async function pageFaults(page: Page, pagePath: string, dataset: Dataset, index: EntityIndex, shown: Set<string>): Promise<string[]> {
  const origin = new URL(page.url()).origin;
  const faults: string[] = [];
  for (const block of BLOCKS) {
    const result = await blockFaults(page, block, index, origin);
    if (result.shown) shown.add(block.what);
    faults.push(...result.faults);
  }
  const names = Object.values(index).flatMap((targets) => [...targets.keys()]);
  faults.push(...(await unlinkedNames(page, names)));
  if (pagePath.startsWith('/detail')) faults.push(...(await bylineFaults(page, pagePath, dataset)));
  if (faults.length > 0) {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await screenshotTop(page, path.join(SCREENSHOTS, `${pagePath.replace(/[^a-zA-Z0-9]+/g, '_')}.png`));
  }
  return faults.map((fault) => `${pagePath}: ${fault}`);
}

describeWithBrowser()('entity names link to their pages', () => {
  const suite = browserPortalSuite();

  it('on every page kind, every tag, column author, topic, live, news track and album named is a link to its page', async () => {
    const { dataset } = suite.portal.upstream.api;
    const column = dataset.articles.find((article) => article.columnist_id);
    if (!column) throw new Error('the reference dataset has no column author’s article');
    const pages = {
      ...(await pagesOfEveryRoute(suite.portal.url, suite.portal.upstream.url)),
      columnArticle: href.detail(column.catid, column.id),
      columnReading: href.detailReading(column.catid, column.id),
    };
    expect(pageIdsMissing(Object.values(pages))).toEqual([]);
    const index = entityIndex(dataset);
    const shown = new Set<string>();
    const faults: string[] = [];
    const { page, problems } = await watchedPage(suite.browser, { viewport: { width: 1296, height: 900 } });
    try {
      for (const [kind, pagePath] of Object.entries(pages)) {
        const earlier = problems.length;
        await gotoHydrated(page, `${suite.portal.url}${pagePath}`);
        // The 404 page's own document is the one failed load expected (reported twice: response and console).
        if (kind === 'notFound') problems.splice(earlier, 2, ...problems.slice(earlier, earlier + 2).filter((problem) => !/404/.test(problem)));
        faults.push(...(await pageFaults(page, pagePath, dataset, index, shown)));
      }
      expect(faults).toEqual([]);
      // Every block was met on some page: a selector that matches nothing would check nothing.
      expect(BLOCKS.map((block) => block.what).filter((what) => !shown.has(what))).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.context().close();
    }
  }, 300_000);
});
