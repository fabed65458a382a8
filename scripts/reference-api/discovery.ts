/**
 * Topics (专题), special-column authors and per-site configuration: the smaller collections around the articles.
 */
import { DEFAULT_THEME_OFFICE_ID } from '../../shared/constants';
import { ALL_SITES, MAIN_DOMAIN, type SiteConfig } from '../../shared/sites';
import type { RawColumnAuthor, RawFriendlyLink, RawSiteInfo, RawTopic } from '../../server/upstream/wire';
import { DAY_SECONDS, TWO_YEARS_SECONDS } from './articles';
import { subdomainOf } from './categories';
import { imagePath } from './media';
import type { Rng } from './random';
import { composeDescription, personName } from './text';
import { AUTHOR_FIELDS, AUTHOR_TITLES, FRIENDLY_LINKS, REGION_GOV_HOSTS, TOPIC_TITLES, type ChannelKey } from './words';

export interface TopicRecord extends RawTopic {
  /** Theme office the topic belongs to (GET /theme/list?officeId filters on it). */
  officeId: number;
  articleIds: number[];
}

/** A second office exists so that filtering by officeId visibly changes the answer. */
const OTHER_OFFICE_ID = DEFAULT_THEME_OFFICE_ID + 1;
const TOPIC_CHANNELS: readonly ChannelKey[] = ['shizheng', 'qingnian', 'keji', 'wenhua', 'shehui', 'sannong'];

function topicJump(rng: Rng, id: number): string {
  // Most topics open the portal's own topic page; some campaigns live on a separate H5 site.
  const url = rng.chance(0.8) ? `https://${MAIN_DOMAIN}/topicDetail/${id}` : `https://h5.qnnews.cn/special/${id}/index.html`;
  return JSON.stringify({ switch_value_android: url });
}

export function generateTopics(rng: Rng, now: number, articleIdPool: readonly number[]): TopicRecord[] {
  return TOPIC_TITLES.map((title, index) => {
    const id = 101 + index;
    return {
      id,
      title,
      description: composeDescription(rng, { channel: rng.pick(TOPIC_CHANNELS) }),
      cover_image: imagePath(`tp${id}`, 640, 360),
      extend: topicJump(rng, id),
      adddate: now - rng.int(DAY_SECONDS, TWO_YEARS_SECONDS - 1),
      officeId: index % 6 === 5 ? OTHER_OFFICE_ID : DEFAULT_THEME_OFFICE_ID,
      articleIds: rng.sample(articleIdPool, rng.int(5, 15)).sort((left, right) => right - left),
    };
  }).sort((left, right) => (right.adddate ?? 0) - (left.adddate ?? 0) || right.id - left.id);
}

export function generateColumnAuthors(rng: Rng, count: number): RawColumnAuthor[] {
  return Array.from({ length: count }, (_, index) => {
    const id = 1001 + index;
    return {
      id,
      name: personName(rng),
      avatar: imagePath(`av${id}`, 200, 200),
      description: `${rng.pick(AUTHOR_TITLES)}，长期关注${rng.pick(AUTHOR_FIELDS)}，在本网开设专栏，已发表评论文章${rng.int(30, 400)}篇。`,
      subscribe_status: 0,
    };
  });
}

function governmentName(site: SiteConfig): string {
  if (['北京', '天津', '上海', '重庆', '深圳'].includes(site.name)) return `${site.name}市人民政府`;
  if (site.name === '内蒙古') return '内蒙古自治区人民政府';
  return `${site.name}省人民政府`;
}

function friendlyLinks(rng: Rng, site: SiteConfig): RawFriendlyLink[] {
  const national = rng.sample(FRIENDLY_LINKS, rng.int(5, 10)).map(([name, link]) => ({ name, link }));
  const host = REGION_GOV_HOSTS[subdomainOf(site)];
  if (site.id === 0 || !host) return national.length >= 6 ? national : [...national, { name: '中国文明网', link: 'https://www.wenming.cn' }];
  return [{ name: governmentName(site), link: `https://${host}` }, ...national];
}

export function generateSiteInfo(rng: Rng): Map<number, RawSiteInfo> {
  return new Map(
    ALL_SITES.map((site) => [
      site.id,
      {
        seo: { seo_title: site.seo_title, seo_keywords: site.seo_keywords, seo_description: site.seo_description },
        friendly_link_list: friendlyLinks(rng, site),
      },
    ]),
  );
}
