/**
 * Newspaper issues (报纸) for the e-paper pages: each issue has 4–8 pages (版面), each page a 1200×1700 image with
 * clickable article areas. Areas point at real articles published on or before the issue date, as a paper
 * reprints the previous days' stories.
 */
import type { NewspaperIssue } from '../../shared/types/entities';
import type { RawArticleDetail, RawNewspaperArea, RawNewspaperPage } from '../../server/upstream/wire';
import { DAY_SECONDS } from './articles';
import { imagePath } from './media';
import type { Rng } from './random';

export const PAGE_WIDTH = 1200;
export const PAGE_HEIGHT = 1700;
const SHANGHAI_OFFSET = 8 * 3600;
/** The paper goes out at 06:00 Beijing time. */
const PUBLISH_HOUR = 6;

interface PaperDef {
  catid: number;
  name: string;
  issues: number;
  /** Days between issues: 1 daily, 7 weekly. */
  every: number;
  firstIssueNo: number;
  pageNames: readonly string[];
}

const PAPERS: readonly PaperDef[] = [
  {
    catid: 2761,
    name: '中国青年报',
    issues: 22,
    every: 1,
    firstIssueNo: 17_800,
    pageNames: ['要闻', '综合新闻', '教育·科学', '思想理论', '青年话题', '冰点', '文化周刊', '体育'],
  },
  {
    catid: 2762,
    name: '青年参考',
    issues: 12,
    every: 7,
    firstIssueNo: 1_480,
    pageNames: ['封面', '国际观察', '环球青年', '科技前沿', '文化', '健康生活', '职场', '视野'],
  },
];

export const NEWSPAPER_CATIDS: readonly number[] = PAPERS.map((paper) => paper.catid);

function shanghaiDate(unixSeconds: number): string {
  const date = new Date((unixSeconds + SHANGHAI_OFFSET) * 1000);
  return date.toISOString().slice(0, 10);
}

/** Unix seconds of 06:00 Beijing time on the Beijing day `daysBack` days before `now`'s. */
function publishTime(now: number, daysBack: number): number {
  const midnight = Math.floor((now + SHANGHAI_OFFSET) / DAY_SECONDS) * DAY_SECONDS - SHANGHAI_OFFSET;
  return midnight - daysBack * DAY_SECONDS + PUBLISH_HOUR * 3600;
}

/** Stacks 2–4 areas down the page, each the full width minus margins, like a simple broadsheet layout. */
function layoutAreas(rng: Rng, articles: readonly RawArticleDetail[]): RawNewspaperArea[] {
  const margin = 60;
  const top = 220;
  const available = PAGE_HEIGHT - top - margin;
  const weights = articles.map((_, index) => (index === 0 ? 2 : 1) + rng.next());
  const sum = weights.reduce((total, weight) => total + weight, 0);
  let y = top;
  return articles.map((article, index) => {
    const height = Math.floor((available * (weights[index] ?? 1)) / sum) - 20;
    const area = { article_id: article.id, title: article.title, x: margin, y, width: PAGE_WIDTH - 2 * margin, height };
    y += height + 20;
    return area;
  });
}

/**
 * @param pool national news articles, newest first
 */
export function generateNewspapers(rng: Rng, now: number, pool: readonly RawArticleDetail[]): NewspaperIssue[] {
  const used = new Set<number>();
  /** The newest unused articles published before `time`; reuse only once the pool runs dry. */
  const pick = (time: number, count: number): RawArticleDetail[] => {
    const chosen: RawArticleDetail[] = [];
    for (const article of pool) {
      if (chosen.length === count) break;
      if ((article.adddate ?? 0) <= time && !used.has(article.id)) chosen.push(article);
    }
    for (const article of pool) {
      if (chosen.length === count) break;
      if ((article.adddate ?? 0) <= time && !chosen.includes(article)) chosen.push(article);
    }
    chosen.forEach((article) => used.add(article.id));
    return chosen;
  };
  const issues: NewspaperIssue[] = [];
  let id = 70_001;
  for (const paper of PAPERS) {
    // Today's issue only exists once it has gone out.
    const firstBack = publishTime(now, 0) <= now ? 0 : 1;
    for (let index = 0; index < paper.issues; index += 1) {
      const adddate = publishTime(now, firstBack + index * paper.every);
      const issueId = id;
      id += 1;
      const pageCount = rng.int(4, 8);
      const pages: RawNewspaperPage[] = paper.pageNames.slice(0, pageCount).map((name, pageIndex) => ({
        page_no: pageIndex + 1,
        name,
        image: imagePath(`np${issueId}p${pageIndex + 1}`, PAGE_WIDTH, PAGE_HEIGHT),
        width: PAGE_WIDTH,
        height: PAGE_HEIGHT,
        areas: layoutAreas(rng, pick(adddate, rng.int(2, 4))),
      }));
      issues.push({
        id: issueId,
        catid: paper.catid,
        paper_name: paper.name,
        issue_date: shanghaiDate(adddate),
        issue_no: paper.firstIssueNo - index,
        adddate,
        pages,
      });
    }
  }
  return issues.sort((left, right) => (right.adddate ?? 0) - (left.adddate ?? 0) || right.id - left.id);
}

/** Page labels for the generated page images: '中国青年报 第3版'. */
export function newspaperPageLabel(issues: readonly NewspaperIssue[], key: string): string | undefined {
  const match = /^np(\d+)p(\d+)$/.exec(key);
  if (!match) return undefined;
  const issue = issues.find((candidate) => candidate.id === Number(match[1]));
  return issue ? `${issue.paper_name} 第${match[2]}版` : undefined;
}

/** Matches the date (2026-01-01 or 20260101), the paper, a page name or an article title on any page. */
export function issueMatches(issue: NewspaperIssue, keyword: string): boolean {
  if (keyword === '') return true;
  const needle = keyword.toLowerCase();
  if (issue.issue_date.includes(needle) || issue.issue_date.replace(/-/g, '').includes(needle)) return true;
  if (issue.paper_name.includes(keyword)) return true;
  return issue.pages.some((page) => page.name.includes(keyword) || page.areas.some((area) => area.title.toLowerCase().includes(needle)));
}

export function presentIssue(issue: NewspaperIssue, media: (path: string) => string): NewspaperIssue {
  return {
    ...issue,
    pages: issue.pages.map((page) => ({ ...page, image: media(page.image), areas: page.areas.map((area) => ({ ...area })) })),
  };
}
