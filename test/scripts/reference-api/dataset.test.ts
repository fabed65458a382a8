import { isDeepStrictEqual } from 'node:util';
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
} from '../../../shared/constants';
import { ALL_SITES, REGIONAL_SITES } from '../../../shared/sites';
import type { RawAdvertisement, RawCategory } from '../../../server/upstream/wire';
import { generateDataset, type Dataset } from '../../../scripts/reference-api/dataset';
import { countMatches, DAY, IMAGE_PATH, NOW, SEED, TWO_YEARS } from './fixtures';

const REQUIRED_CATIDS = [
  HOME_CATID,
  BANNER_CATID,
  DETAIL_SIDE_CATID,
  MINGDI_ID,
  MINGDI_DETAIL_ID,
  YOUTHNEWS_ID,
  YOUTHNEWS_DETAIL_ID,
  MESSAGE_ID,
  ABOUT_ID,
  CONTRIBUTE_ID,
  MOVE_INTO_ID,
  SEEKING_REPORT_ID,
  ELECTRONIC_ID,
  COLUMN_INTRODUCE_ID,
  HOT_NEWS_ID,
  PROVINCE_PARENT_CATID,
];
const PROVINCE_SITES = REGIONAL_SITES.filter((site) => site.catid > 0);

let dataset: Dataset;

beforeAll(() => {
  dataset = generateDataset({ seed: SEED, now: NOW });
});

function templateOf(node: RawCategory): string | undefined {
  return node.newfield.find((field) => field.name === 'template')?.desc;
}

function ownArticles(catid: number) {
  return dataset.articles.filter((article) => article.catid === catid);
}

describe('determinism', () => {
  it('gives an identical dataset for the same seed and clock', () => {
    const again = generateDataset({ seed: SEED, now: NOW });
    // Node's deep comparison takes a tenth of jest's over 2,800 articles; jest's, with its diff, only to say where.
    if (!isDeepStrictEqual(again, dataset)) expect(again).toEqual(dataset);
    expect(isDeepStrictEqual(again, dataset)).toBe(true);
  });

  it('gives different content for another seed, on the same category tree', () => {
    const other = generateDataset({ seed: SEED + 1, now: NOW });
    expect(other.articles.slice(0, 50).map((article) => article.title)).not.toEqual(dataset.articles.slice(0, 50).map((article) => article.title));
    expect(other.categories).toEqual(dataset.categories);
  });

  it('keeps publication times relative to now', () => {
    const later = generateDataset({ seed: SEED, now: NOW + 3600 });
    expect(later.articles.map((article) => article.adddate! - 3600)).toEqual(dataset.articles.map((article) => article.adddate));
  });
});

describe('categories', () => {
  it('has at least 45 categories with unique ids, including every constant catid', () => {
    expect(dataset.categories.length).toBeGreaterThanOrEqual(45);
    expect(new Set(dataset.categories.map((category) => category.catid)).size).toBe(dataset.categories.length);
    for (const catid of REQUIRED_CATIDS) expect(dataset.categoryById.has(catid)).toBe(true);
  });

  it('forms a tree: every parent exists', () => {
    for (const category of dataset.categories) {
      if (category.parentid !== 0) expect(dataset.categoryById.has(category.parentid)).toBe(true);
    }
  });

  it('gives the home category eight content blocks', () => {
    const blocks = dataset.childrenOf.get(HOME_CATID) ?? [];
    expect(blocks).toHaveLength(8);
    for (const catid of blocks) expect(ownArticles(catid).length).toBeGreaterThanOrEqual(12);
  });

  it('puts one template-8 category per regional site with a catid under the province parent, each with 6 blocks', () => {
    const children = dataset.childrenOf.get(PROVINCE_PARENT_CATID) ?? [];
    expect([...children].sort()).toEqual(PROVINCE_SITES.map((site) => site.catid).sort());
    for (const catid of children) {
      expect(dataset.categoryById.get(catid)?.template).toBe('8');
      const blocks = dataset.childrenOf.get(catid) ?? [];
      expect(blocks).toHaveLength(6);
      for (const block of blocks) expect(ownArticles(block).length).toBeGreaterThanOrEqual(12);
    }
  });

  it('uses pinyin directory segments', () => {
    for (const category of dataset.categories) expect(category.categoryDirectory).toMatch(/^[a-z]+$/);
  });
});

describe('menu', () => {
  it('starts with the home entry (template 7)', () => {
    const first = dataset.menu[0];
    expect(first?.catid).toBe(HOME_CATID);
    expect(first && templateOf(first)).toBe('7');
  });

  it('by default, every menu entry leads to a page (template codes 1–3 and 5–8, none missing or empty)', () => {
    const nodes = dataset.menu.flatMap((node) => [node, ...node.children]);
    const codes = new Set(nodes.map(templateOf));
    for (const code of ['1', '2', '3', '5', '6', '7', '8']) expect(codes.has(code)).toBe(true);
    expect(nodes.filter((node) => !['1', '2', '3', '5', '6', '7', '8'].includes(templateOf(node) ?? ''))).toEqual([]);
  });

  it('with menu faults, has exactly the three misconfigured level-2 items, and every template code 1–8', () => {
    const faulty = generateDataset({ seed: SEED, now: NOW, menuFaults: true });
    const level2 = faulty.menu.flatMap((node) => node.children);
    expect(level2.filter((node) => !node.newfield.some((field) => field.name === 'template'))).toHaveLength(1);
    expect(level2.filter((node) => templateOf(node) === '4')).toHaveLength(1);
    expect(level2.filter((node) => templateOf(node) === '')).toHaveLength(1);
    expect(level2.every((node) => node.children.length === 0)).toBe(true);
    const codes = new Set(faulty.menu.flatMap((node) => [node, ...node.children]).map(templateOf));
    for (const code of ['1', '2', '3', '4', '5', '6', '7', '8']) expect(codes.has(code)).toBe(true);
  });

  it('lists the province parent with template-8 children', () => {
    const province = dataset.menu.find((node) => node.catid === PROVINCE_PARENT_CATID);
    expect(province?.children.map((child) => child.catid)).toEqual(PROVINCE_SITES.map((site) => site.catid));
    expect(province?.children.every((child) => templateOf(child) === '8' && child.parentid === PROVINCE_PARENT_CATID)).toBe(true);
  });
});

describe('articles', () => {
  it('has at least 2,400 articles with unique positive ids', () => {
    expect(dataset.articles.length).toBeGreaterThanOrEqual(2400);
    const ids = dataset.articles.map((article) => article.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
  });

  it('gives every category that lists articles at least 12, and hot news and banner at least 20', () => {
    for (const [catid, ids] of dataset.listByCatid) {
      // The catid rides along so a failure names the category.
      if (ids.length > 0) expect([catid, ids.length >= 12]).toEqual([catid, true]);
    }
    expect(ownArticles(HOT_NEWS_ID).length).toBeGreaterThanOrEqual(20);
    expect(ownArticles(BANNER_CATID).length).toBeGreaterThanOrEqual(20);
    expect(ownArticles(BANNER_CATID).every((article) => article.thumb !== '')).toBe(true);
  });

  it('respects the text length limits and the category name', () => {
    // Collect offenders instead of asserting per article: 2,800 expect() calls are slow and a failure lists them all.
    const offenders = dataset.articles.filter(
      (article) =>
        article.title.length < 8 ||
        article.title.length > 30 ||
        article.description.length < 40 ||
        article.description.length > 120 ||
        article.catname !== dataset.categoryById.get(article.catid)?.catname ||
        article.source === '' ||
        article.author === '',
    );
    expect(offenders.map((article) => article.id)).toEqual([]);
  });

  it('leaves list_title empty for about 60% and otherwise uses a shorter headline', () => {
    const withListTitle = dataset.articles.filter((article) => article.list_title !== '');
    const emptyShare = 1 - withListTitle.length / dataset.articles.length;
    expect(emptyShare).toBeGreaterThan(0.5);
    expect(emptyShare).toBeLessThan(0.7);
    for (const article of withListTitle) expect(article.list_title.length).toBeLessThan(article.title.length);
  });

  it('has thumbs on about 80% of articles, all generated image paths', () => {
    const thumbs = dataset.articles.filter((article) => article.thumb !== '');
    expect(thumbs.length / dataset.articles.length).toBeGreaterThan(0.7);
    expect(thumbs.length / dataset.articles.length).toBeLessThan(0.9);
    for (const article of thumbs) expect(article.thumb).toMatch(IMAGE_PATH);
  });

  it('spreads adddate over two years, with fresh stories for relative times', () => {
    const ages = dataset.articles.map((article) => NOW - article.adddate!);
    expect(Math.min(...ages)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...ages)).toBeLessThan(TWO_YEARS);
    expect(Math.max(...ages)).toBeGreaterThan(TWO_YEARS / 2);
    expect(ages.filter((age) => age < DAY).length).toBeGreaterThanOrEqual(30);
    expect(ages.filter((age) => age < 3600).length).toBeGreaterThanOrEqual(3);
    expect(ages.filter((age) => age < 60).length).toBeGreaterThanOrEqual(1);
    expect(ages.filter((age) => age >= DAY && age < 7 * DAY).length).toBeGreaterThan(0);
    expect(ages.filter((age) => age > 365 * DAY).length).toBeGreaterThan(0);
  });

  it('orders ids by publication time, and lists newest first', () => {
    const hot = dataset.listByCatid.get(HOT_NEWS_ID) ?? [];
    const dates = hot.map((id) => dataset.articleById.get(id)?.adddate ?? 0);
    expect(dates).toEqual([...dates].sort((left, right) => right - left));
  });

  it('writes bodies of 4–10 paragraphs with 1–3 captioned figures', () => {
    const figurePattern = /<figure><img src="\/media\/img\/[^"]+" width="\d+" height="\d+" alt="[^"]*"/;
    const offenders = dataset.articles.filter((article) => {
      const paragraphs = countMatches(article.content, /<p>/);
      const figures = countMatches(article.content, figurePattern);
      // Up to 11 plain paragraphs: 10 plus a blockquote's.
      return paragraphs < 4 || paragraphs > 11 || figures < 1 || figures > 3 || countMatches(article.content, /<figcaption>/) !== figures;
    });
    expect(offenders.map((article) => article.id)).toEqual([]);
    expect(dataset.articles.some((article) => article.content.includes('<h3>'))).toBe(true);
    expect(dataset.articles.some((article) => article.content.includes('<blockquote>'))).toBe(true);
    expect(dataset.articles.some((article) => article.content.includes('<strong>'))).toBe(true);
  });

  it('leaves sanitiser work in about 2% of bodies, of every kind', () => {
    const kinds = { onerror: / onerror="/, script: /<script>/, iframe: /<iframe src="javascript:/, style: / style="/ };
    const dirty = dataset.articles.filter((article) => Object.values(kinds).some((pattern) => pattern.test(article.content)));
    expect(dirty.length / dataset.articles.length).toBeGreaterThan(0.005);
    expect(dirty.length / dataset.articles.length).toBeLessThan(0.05);
    for (const pattern of Object.values(kinds)) expect(dataset.articles.some((article) => pattern.test(article.content))).toBe(true);
  });

  it('tags articles with 0–4 of about 60 tags', () => {
    expect(dataset.tags.length).toBeGreaterThanOrEqual(55);
    const tagIds = new Set(dataset.tags.map((tag) => tag.id));
    const offenders = dataset.articles.filter((article) => article.tags.length > 4 || article.tags.some((tag) => !tagIds.has(tag.id)));
    expect(offenders.map((article) => article.id)).toEqual([]);
  });
});

describe('ads', () => {
  function checkAd(ad: RawAdvertisement): void {
    expect(ad.image).toMatch(IMAGE_PATH);
    if (ad.ad_type === 2) {
      expect(ad.video).toBe(`/media/video/${ad.id}.mp4`);
      expect(dataset.videoAdIds.has(ad.id)).toBe(true);
    } else {
      expect(ad.video).toBe('');
    }
    const internal = /^\/detail\/(\d+)\/(\d+)$/.exec(ad.jump_url);
    if (internal) expect(dataset.articleById.get(Number(internal[2]))?.catid).toBe(Number(internal[1]));
    else expect(ad.jump_url).toMatch(/^https:\/\//);
  }

  it('has 1–3 ads in every detail group', () => {
    for (const ads of Object.values(dataset.adGroups)) {
      expect(ads.length).toBeGreaterThanOrEqual(1);
      expect(ads.length).toBeLessThanOrEqual(3);
      ads.forEach(checkAd);
    }
  });

  it('has homepage slots 1–6 and 8–16 with 1–2 ads for the main and every regional home', () => {
    const homes = [HOME_CATID, ...PROVINCE_SITES.map((site) => site.catid)];
    expect([...dataset.homeAdSlots.keys()].sort()).toEqual(homes.sort());
    for (const slots of dataset.homeAdSlots.values()) {
      expect(slots.map((slot) => slot.position)).toEqual([1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
      for (const slot of slots) {
        expect(slot.list.length).toBeGreaterThanOrEqual(1);
        expect(slot.list.length).toBeLessThanOrEqual(2);
        slot.list.forEach(checkAd);
      }
    }
  });

  it('mixes image and video ads, and internal and external links', () => {
    const all = [...Object.values(dataset.adGroups).flat(), ...[...dataset.homeAdSlots.values()].flat().flatMap((slot) => slot.list)];
    expect(all.some((ad) => ad.ad_type === 1)).toBe(true);
    expect(all.some((ad) => ad.ad_type === 2)).toBe(true);
    expect(all.some((ad) => ad.jump_url.startsWith('/detail/'))).toBe(true);
    expect(all.some((ad) => ad.jump_url.startsWith('https://'))).toBe(true);
    expect(new Set(all.map((ad) => ad.id)).size).toBe(all.length);
  });
});

describe('topics, authors, sites', () => {
  it('has at least 30 topics with covers, a jump URL and 5–15 existing articles', () => {
    expect(dataset.topics.length).toBeGreaterThanOrEqual(30);
    for (const topic of dataset.topics) {
      expect(topic.cover_image).toMatch(IMAGE_PATH);
      const extend = JSON.parse(topic.extend) as { switch_value_android?: unknown };
      expect(extend.switch_value_android).toEqual(expect.stringMatching(/^https:\/\//));
      expect(topic.articleIds.length).toBeGreaterThanOrEqual(5);
      expect(topic.articleIds.length).toBeLessThanOrEqual(15);
      for (const id of topic.articleIds) expect(dataset.articleById.has(id)).toBe(true);
    }
  });

  it('has at least 20 column authors with square avatars, not subscribed', () => {
    expect(dataset.columnAuthors.length).toBeGreaterThanOrEqual(20);
    for (const author of dataset.columnAuthors) {
      expect(author.avatar).toMatch(/^\/media\/img\/av\d+-(\d+)x\1\.jpg$/);
      expect(author.description.length).toBeGreaterThan(10);
      expect(author.subscribe_status).toBe(0);
    }
  });

  it('has site info for every site with its SEO and 6–12 https friendly links', () => {
    for (const site of ALL_SITES) {
      const info = dataset.siteInfo.get(site.id);
      expect(info?.seo).toEqual({ seo_title: site.seo_title, seo_keywords: site.seo_keywords, seo_description: site.seo_description });
      expect(info?.friendly_link_list.length).toBeGreaterThanOrEqual(6);
      expect(info?.friendly_link_list.length).toBeLessThanOrEqual(12);
      for (const link of info?.friendly_link_list ?? []) expect(link.link).toMatch(/^https:\/\/[a-z0-9.-]+$/);
    }
  });

  it('maps province catids to their domains and starts with grey mode off', () => {
    for (const site of PROVINCE_SITES) expect(dataset.domainByCatid.get(site.catid)).toBe(site.domain);
    expect(dataset.greyMode).toBe('0');
  });
});
