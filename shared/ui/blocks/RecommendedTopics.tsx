/** Recommended topics (docs/product.md §2): '热门专题' by default, the first 4 topics as a cover grid, an ad below. */
import { Suspense } from 'react';
import { RECOMMENDED_TOPICS_SHOWN, TEXT } from '../../constants';
import { href } from '../../routes';
import type { Advertisement, TopicCover } from '../../types/entities';
import { Resource } from '../data/Resource';
import { AdCarousel } from './AdCarousel';
import { SiteLink } from './SiteLink';
import { SlotImage } from './SlotImage';

/**
 * The CMS's jump target when it is a link (a campaign's own H5 site, or the topic's page), else the topic's own
 * page, /topicDetail/{id} (`/topic/{id}` is the list of topics under a menu entry, not one topic's page). SiteLink
 * makes a jump to this site's own domain a path, so it opens in the app like any link of the portal.
 */
function topicHref(topic: TopicCover): string {
  const jump = topic.jump.switch_value_android;
  return /^(https?:\/\/|\/)/.test(jump) ? jump : href.topicDetail(topic.id);
}

/** What stands in for the covers while they stream in: boxes of the covers' own size (placeholders.test.ts). */
export function TopicsSkeleton() {
  return (
    <ul className="side-topics" aria-busy="true">
      {Array.from({ length: RECOMMENDED_TOPICS_SHOWN }, (_, index) => (
        <li key={index} className="skeleton-box" />
      ))}
    </ul>
  );
}

export function RecommendedTopics({ title = TEXT.recommendedTopicsTitle, adsBelow = [] }: { title?: string; adsBelow?: readonly Advertisement[] }) {
  return (
    <section className="side-block recommended-topics" aria-labelledby="recommended-topics-title">
      <h2 id="recommended-topics-title" className="block-title">
        {title}
      </h2>
      <Suspense fallback={<TopicsSkeleton />}>
        <Resource name="topics">
          {(topics) => (
            <ul className="side-topics">
              {topics.map((topic) => (
                <li key={topic.id}>
                  <SiteLink href={topicHref(topic)}>
                    <SlotImage src={topic.thumb} slot="sideTopic" width={150} height={84} lazy />
                    <span>{topic.title}</span>
                  </SiteLink>
                </li>
              ))}
            </ul>
          )}
        </Resource>
      </Suspense>
      <AdCarousel ads={adsBelow} label="专题广告" />
    </section>
  );
}
