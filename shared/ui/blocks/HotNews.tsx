/** Hot news (docs/product.md §2 Other blocks): 5 ranked items, a skeleton while they stream in, ads above and below. */
import { Suspense } from 'react';
import { Link } from '../link';
import { HOT_NEWS_SIZE, TEXT } from '../../constants';
import { href } from '../../routes';
import type { Advertisement } from '../../types/entities';
import { Resource } from '../data/Resource';
import { AdCarousel } from './AdCarousel';

/** What stands in for the items while they stream in: rows of the items' own height (placeholders.test.ts). */
export function HotNewsSkeleton() {
  return (
    <ol className="hot-news__list hot-news__list--loading" aria-busy="true">
      {Array.from({ length: HOT_NEWS_SIZE }, (_, index) => (
        <li key={index} className="skeleton-line" />
      ))}
    </ol>
  );
}

export function HotNews({ adsAbove = [], adsBelow = [] }: { adsAbove?: readonly Advertisement[]; adsBelow?: readonly Advertisement[] }) {
  return (
    <div className="side-block">
      <AdCarousel ads={adsAbove} label="热点新闻上方广告" />
      <section className="hot-news" aria-labelledby="hot-news-title">
        <h2 id="hot-news-title" className="block-title">
          {TEXT.hotNewsTitle}
        </h2>
        <Suspense fallback={<HotNewsSkeleton />}>
          <Resource name="hotNews">
            {(items) => (
              <ol className="hot-news__list">
                {items.map((item, index) => (
                  <li key={item.id}>
                    <span className={`hot-news__rank hot-news__rank--${index + 1}`}>{index + 1}</span>
                    <Link to={href.detail(item.catid, item.id)}>{item.title}</Link>
                  </li>
                ))}
              </ol>
            )}
          </Resource>
        </Suspense>
      </section>
      <AdCarousel ads={adsBelow} label="热点新闻下方广告" />
    </div>
  );
}
