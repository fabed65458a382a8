/**
 * Special reports (专题 / 新闻追踪) of the topic categories: an event with its ordered updates, read as a timeline
 * on /newsTrack/{id}. Updates are real articles of the report's category, oldest first.
 */
import type { RawArticleDetail, RawSpecialReport } from '../../server/upstream/wire';
import { DAY_SECONDS } from './articles';
import { imagePath } from './media';
import type { Rng } from './random';

/** [catid, title]: the 专题 channel's children (2751 全国两会, 2752 青春中国, 2753 专题报道, 2754 乡村振兴). */
const REPORTS: ReadonlyArray<readonly [number, string]> = [
  [2753, '追踪｜暴雨过后的城市排涝改造'],
  [2753, '追踪｜高校食堂“明厨亮灶”一年间'],
  [2753, '追踪｜老旧小区加装电梯进行时'],
  [2753, '追踪｜“一老一小”托育服务试点'],
  [2753, '追踪｜网络诈骗团伙落网始末'],
  [2753, '追踪｜濒危野生动物救助全纪录'],
  [2751, '两会追踪｜代表建议落地记'],
  [2751, '两会追踪｜政府工作报告里的民生账'],
  [2751, '两会追踪｜青年代表委员履职记'],
  [2752, '青春中国｜西部计划志愿者的一年'],
  [2752, '青春中国｜大学生村官成长记'],
  [2752, '青春中国｜青年突击队在一线'],
  [2754, '乡村振兴｜一个村的产业振兴之路'],
  [2754, '乡村振兴｜返乡青年创业观察'],
];

const STAGES = ['事件缘起', '初步调查', '各方回应', '持续关注', '后续进展'] as const;

export type SpecialRecord = Omit<RawSpecialReport, 'articles'>;

export function generateSpecials(rng: Rng, now: number, listOf: (catid: number) => readonly RawArticleDetail[]): SpecialRecord[] {
  return REPORTS.map(([catid, title], index): SpecialRecord => {
    const id = 201 + index;
    const pool = listOf(catid);
    const members = rng.sample(pool, rng.int(5, 9)).sort((left, right) => (left.adddate ?? 0) - (right.adddate ?? 0) || left.id - right.id);
    const latest = members[members.length - 1]?.adddate ?? now;
    const lead = members[0];
    return {
      id,
      catid,
      title,
      cover: imagePath(`sr${id}`, 1200, 500),
      description: lead ? `${title.replace(/^.*｜/, '')}：${lead.description}` : title,
      adddate: latest,
      // Still being updated while the last update is under a month old.
      status: now - latest < 30 * DAY_SECONDS ? 1 : 2,
      article_ids: members.map((article) => article.id),
    };
  }).sort((left, right) => (right.adddate ?? 0) - (left.adddate ?? 0) || right.id - left.id);
}

/** The stage label of the update at `index` of `count` (oldest first). */
export function stageOf(index: number, count: number, status: 1 | 2): string {
  if (index === 0) return STAGES[0];
  if (index === count - 1) return status === 1 ? '最新进展' : '事件结果';
  return STAGES[Math.min(index, STAGES.length - 1)] ?? '持续关注';
}
