/**
 * CMS content written to break a layout, put into a reference API's dataset before the portal has read any of
 * it (the portal caches what it reads): headlines that are one unbroken Latin word, a long URL, or a Chinese
 * sentence of 120 characters; summaries, sources and author names without a break; articles with thirty tags;
 * tag, column-author, topic, video, live and sub-category names as long; forty friendly links in the footer;
 * every third picture missing. The dataset's records
 * are plain objects the reference API presents on each request, so changing them changes every answer at once
 * (article overrides through the control plane reach articles only).
 */
import type { RawCategory } from '../../server/upstream/wire';
import type { ReferenceServer } from './portal';

export const LONG_WORD = 'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(4);
export const LONG_URL = `https://www.example.com.cn/${'a-very-long-path-segment-without-a-break/'.repeat(4)}?utm_source=${'x'.repeat(40)}`;
export const LONG_CHINESE =
  '习近平在全国教育大会上强调紧紧围绕立德树人根本任务朝着建成教育强国战略目标扎实迈进为以中国式现代化全面推进强国建设提供有力支撑'.repeat(2);
const LONG_DIGITS = '2024'.repeat(30);

/** Headlines by turns: a word, a URL, a Chinese sentence, Chinese then a word, digits. */
const HEADLINES = [LONG_WORD, LONG_URL, LONG_CHINESE, `中国青年报${LONG_WORD}`, LONG_DIGITS];

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function mutable<T>(records: readonly T[]): Array<Mutable<T>> {
  return records as Array<Mutable<T>>;
}

export function makeHostile(upstream: ReferenceServer): void {
  const { dataset } = upstream.api;
  // Sub-categories (the menu's panels, a list's tabs and breadcrumb) by turns a long word or a long Chinese name;
  // the ten level-1 entries stay, the desktop's one row being the editors' to keep short.
  const renamed = (catid: number, index: number) => (index % 2 === 0 ? `${LONG_WORD.slice(0, 50)}${catid}` : `${LONG_CHINESE.slice(0, 22)}${catid}`);
  const subCategories = dataset.categories.filter((category) => category.parentid !== 0);
  subCategories.forEach((category, index) => {
    (category as Mutable<typeof category>).catname = renamed(category.catid, index);
  });
  const names = new Map(subCategories.map((category) => [category.catid, category.catname]));
  const renameTree = (nodes: readonly RawCategory[]) => {
    for (const node of nodes) {
      node.catname = names.get(node.catid) ?? node.catname;
      renameTree(node.children);
    }
  };
  renameTree(dataset.menu);
  // Forty friendly links in every site's footer, named by a long word or a URL.
  for (const info of dataset.siteInfo.values()) {
    (info as Mutable<typeof info>).friendly_link_list = Array.from({ length: 40 }, (_, index) => ({
      name: index % 2 === 0 ? `${LONG_WORD.slice(0, 40)}${index}` : LONG_URL,
      link: `https://example.com.cn/${index}`,
    }));
  }
  const tags = mutable(dataset.tags);
  tags.forEach((tag, index) => {
    if (index % 2 === 0) tag.name = `${LONG_WORD.slice(0, 60)}${index}`;
  });
  const manyTags = tags.slice(0, 30).map((tag) => ({ ...tag }));
  mutable(dataset.articles).forEach((article, index) => {
    article.title = HEADLINES[index % HEADLINES.length]!;
    article.list_title = '';
    article.description = `${LONG_URL}${LONG_WORD}`;
    article.source = LONG_WORD.slice(0, 80);
    article.author = LONG_WORD.slice(0, 70);
    article.editor = LONG_WORD.slice(0, 50);
    article.keywords = LONG_WORD;
    if (index % 3 === 0) article.thumb = '';
    article.tags =
      index % 2 === 0
        ? manyTags.map((tag) => ({ ...tag }))
        : article.tags.map((tag) => ({ ...tag, name: tags.find((t) => t.id === tag.id)?.name ?? tag.name }));
  });
  mutable(dataset.videos).forEach((video, index) => {
    video.title = HEADLINES[index % HEADLINES.length]!;
    video.description = `${LONG_URL}${LONG_WORD}`;
    video.source = LONG_WORD.slice(0, 80);
    if (index % 3 === 0) video.cover = '';
  });
  mutable(dataset.albums).forEach((album, index) => {
    album.title = HEADLINES[index % HEADLINES.length]!;
    album.description = LONG_WORD;
  });
  mutable(dataset.lives).forEach((live, index) => {
    live.title = HEADLINES[index % HEADLINES.length]!;
    live.description = `${LONG_URL}${LONG_WORD}`;
    if (index % 3 === 0) live.cover = '';
  });
  mutable(dataset.playbacks).forEach((playback, index) => {
    playback.title = HEADLINES[index % HEADLINES.length]!;
  });
  mutable(dataset.topics).forEach((topic, index) => {
    topic.title = HEADLINES[index % HEADLINES.length]!;
    topic.description = `${LONG_URL}${LONG_WORD}`;
    if (index % 3 === 0) topic.cover_image = '';
  });
  mutable(dataset.columnAuthors).forEach((author, index) => {
    author.name = index % 2 === 0 ? LONG_WORD.slice(0, 60) : LONG_CHINESE.slice(0, 30);
    author.description = `${LONG_URL}${LONG_WORD}`;
    if (index % 3 === 0) author.avatar = '';
  });
}

/**
 * Every list the CMS answers empty: each category's articles (home's blocks, lists, search), each topic's, tag's
 * and column author's. Paths to pages are best found before (home links no article after).
 */
export function emptyLists(upstream: ReferenceServer): void {
  const { dataset } = upstream.api;
  const empty = <K>(map: ReadonlyMap<K, readonly number[]>) => {
    for (const key of map.keys()) (map as Map<K, readonly number[]>).set(key, []);
  };
  empty(dataset.listByCatid);
  empty(dataset.articlesByTag);
  empty(dataset.articlesByColumnist);
  for (const topic of mutable(dataset.topics)) topic.articleIds = [];
}
