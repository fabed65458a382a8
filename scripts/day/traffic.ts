/**
 * What readers ask for in a newspaper's day (`npm run day`): the mix of pages and of readers. Articles by
 * popularity, Zipf over every article of the dataset (newest first: the head is the day's news, the tail the
 * archive); home, lists, search, video and live pages beside them; phones, desktops, signed-in readers and
 * crawlers. Seeded, so a run asks for the same sequence again.
 */
import type { Dataset } from '../reference-api/dataset';
import { MAIN_DOMAIN } from '../../shared/sites';
import { encodeKeyword } from '../../shared/search-keyword';
import { CATEGORY_PAGE_SIZE } from '../../server/pages/category-list/loader';
import { seeded } from '../seeded-random';

export const PAGE_CLASSES = ['article', 'home', 'list', 'search', 'video', 'live', 'sitemap', 'personal'] as const;
export type PageClass = (typeof PAGE_CLASSES)[number];
export type ReaderKind = 'phone' | 'desktop' | 'signed-in' | 'crawler';

export interface View {
  cls: PageClass;
  reader: ReaderKind;
  host: string;
  path: string;
  userAgent: string;
  /** The article the view is of (article pages), for the takedown check. */
  articleId?: number;
  cookie?: string;
}

export interface Article {
  id: number;
  catid: number;
  host: string;
  path: string;
  title: string;
}

/** Shares of readers (the rest are desktop readers, anonymous). */
export const READER_SHARES = { phone: 0.7, signedIn: 0.05, crawler: 0.1 } as const;
/** What readers (not crawlers) open; signed-in readers open their personal center now and then besides. */
const HUMAN_PAGES: ReadonlyArray<readonly [PageClass, number]> = [
  ['article', 0.55],
  ['home', 0.18],
  ['list', 0.12],
  ['video', 0.06],
  ['live', 0.05],
  ['search', 0.04],
];
const PERSONAL_SHARE_SIGNED_IN = 0.05;

/** Articles past this rank are the long tail crawlers walk. */
export const HEAD_SIZE = 300;
const ZIPF_EXPONENT = 1;

const USER_AGENTS = {
  phone: [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
    'Mozilla/5.0 (Linux; Android 13; V2227A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36 MicroMessenger/8.0.49',
  ],
  desktop: [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  ],
  crawler: [
    'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)',
  ],
};

/** Ranks 0..n-1 drawn with probability ∝ 1/(rank+1)^s: the cumulative weights, searched by bisection. */
export function zipf(n: number, exponent: number, random: () => number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let rank = 0; rank < n; rank += 1) cumulative[rank] = total += 1 / (rank + 1) ** exponent;
  return () => {
    const target = random() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/** The share of draws the first `head` ranks get. */
export function headShare(n: number, head: number, exponent = ZIPF_EXPONENT): number {
  let all = 0;
  let top = 0;
  for (let rank = 0; rank < n; rank += 1) {
    const weight = 1 / (rank + 1) ** exponent;
    all += weight;
    if (rank < head) top += weight;
  }
  return top / all;
}

/** Every article of the dataset, newest first, on the site its category belongs to. */
export function articlesOf(dataset: Dataset): Article[] {
  return [...dataset.articles]
    .sort((left, right) => (right.adddate ?? 0) - (left.adddate ?? 0) || right.id - left.id)
    .map((article) => ({
      id: article.id,
      catid: article.catid,
      host: dataset.domainByCatid.get(article.catid) ?? MAIN_DOMAIN,
      path: `/detail/${article.catid}/${article.id}`,
      title: article.title,
    }));
}

export interface Catalogue {
  articles: readonly Article[];
  /** List pages (`…/V1/{catid}`) on their sites, with how many pages each has. */
  lists: ReadonlyArray<{ host: string; path: string; pages: number }>;
  videos: readonly string[];
  lives: readonly string[];
  searchWords: readonly string[];
  /** Regional sites' domains (their home pages). */
  regionalHosts: readonly string[];
}

export function catalogueOf(dataset: Dataset, lists: ReadonlyArray<{ host: string; path: string }>): Catalogue {
  const regionalHosts = [...new Set(dataset.domainByCatid.values())].filter((host) => host !== MAIN_DOMAIN);
  return {
    articles: articlesOf(dataset),
    lists: lists.map((list) => ({
      ...list,
      pages: Math.max(1, Math.ceil((dataset.listByCatid.get(Number(/(\d+)$/.exec(list.path)?.[1]))?.length ?? 0) / CATEGORY_PAGE_SIZE)),
    })),
    // The address every link of the site names (`/video/{id}` is a 301 to it).
    videos: dataset.videos.map((video) => `/video/${video.catid}/${video.id}`),
    lives: dataset.lives.map((live) => `/liveStreamDetail/${live.id}`),
    searchWords: dataset.tags.map((tag) => tag.name),
    regionalHosts,
  };
}

/** Cookies of the signed-in readers (filled in once they have signed in). */
export interface Traffic {
  next(): View;
}

export function traffic(catalogue: Catalogue, signedIn: () => readonly string[], seed: number): Traffic {
  const random = seeded(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const articleRank = zipf(catalogue.articles.length, ZIPF_EXPONENT, random);
  const listRank = zipf(catalogue.lists.length, ZIPF_EXPONENT, random);
  const searchRank = zipf(catalogue.searchWords.length, ZIPF_EXPONENT, random);
  const tail = catalogue.articles.slice(HEAD_SIZE);

  const articleView = (article: Article): Omit<View, 'reader' | 'userAgent'> => ({
    cls: 'article',
    host: article.host,
    path: article.path,
    articleId: article.id,
  });

  function humanPage(reader: ReaderKind): Omit<View, 'reader' | 'userAgent'> {
    if (reader === 'signed-in' && random() < PERSONAL_SHARE_SIGNED_IN) return { cls: 'personal', host: MAIN_DOMAIN, path: '/personalCenter' };
    let draw = random();
    const cls = HUMAN_PAGES.find(([, share]) => (draw -= share) < 0)?.[0] ?? 'article';
    switch (cls) {
      case 'article':
        return articleView(catalogue.articles[articleRank()]!);
      case 'home':
        return { cls, host: random() < 0.8 ? MAIN_DOMAIN : pick(catalogue.regionalHosts), path: '/' };
      case 'list': {
        const list = catalogue.lists[listRank()]!;
        return { cls, host: list.host, path: random() < 0.85 || list.pages < 2 ? list.path : `${list.path}?page=2` };
      }
      case 'search':
        return { cls, host: MAIN_DOMAIN, path: `/search/${encodeKeyword(catalogue.searchWords[searchRank()]!)}/2` };
      case 'video':
        return { cls, host: MAIN_DOMAIN, path: random() < 0.2 ? '/shike/2839' : pick(catalogue.videos) };
      default:
        return { cls: 'live', host: MAIN_DOMAIN, path: pick(catalogue.lives) };
    }
  }

  /** Crawlers walk the long tail (articles past the head, deep list pages) and the sitemaps. */
  function crawlerPage(): Omit<View, 'reader' | 'userAgent'> {
    const draw = random();
    if (draw < 0.7) return articleView(pick(tail));
    if (draw < 0.85) {
      const list = pick(catalogue.lists);
      const page = 1 + Math.floor(random() * Math.min(list.pages, 6));
      return { cls: 'list', host: list.host, path: page === 1 ? list.path : `${list.path}?page=${page}` };
    }
    const host = random() < 0.7 ? MAIN_DOMAIN : pick(catalogue.regionalHosts);
    return { cls: 'sitemap', host, path: pick(['/sitemap.xml', '/sitemaps/news.xml', '/sitemaps/pages.xml']) };
  }

  return {
    next(): View {
      const draw = random();
      const cookies = signedIn();
      if (draw < READER_SHARES.crawler) return { ...crawlerPage(), reader: 'crawler', userAgent: pick(USER_AGENTS.crawler) };
      if (draw < READER_SHARES.crawler + READER_SHARES.signedIn && cookies.length > 0) {
        return { ...humanPage('signed-in'), reader: 'signed-in', userAgent: pick(USER_AGENTS.desktop), cookie: pick(cookies) };
      }
      if (draw < READER_SHARES.crawler + READER_SHARES.signedIn + READER_SHARES.phone) {
        return { ...humanPage('phone'), reader: 'phone', userAgent: pick(USER_AGENTS.phone) };
      }
      return { ...humanPage('desktop'), reader: 'desktop', userAgent: pick(USER_AGENTS.desktop) };
    },
  };
}
