/**
 * Advertising carousel (docs/product.md §2, §3): image or video slides. The server renders every slide in swiper's
 * markup with the first one showing; after hydration, a carousel of two or more slides loads swiper (its own
 * chunk) once it comes within a screen of the viewport (so a page whose carousels are below the fold does not
 * fetch or run swiper during load), and autoplays with a delay drawn from 5–8 s unless one is set, pausing while
 * the pointer is on it.
 */
import { useEffect, useRef } from 'react';
import { autoplayDelay, DEFAULT_SLIDE_HEIGHT_PX } from '../../shared/carousel';
import type { Advertisement } from '../../shared/types/entities';
import { SiteLink } from './SiteLink';

function Slide({ ad, height, eager }: { ad: Advertisement; height: number; eager: boolean }) {
  const media =
    ad.type === 2 && ad.video ? (
      <video src={ad.video} poster={ad.image} muted loop playsInline autoPlay preload="none" height={height} aria-label={ad.title} />
    ) : (
      <img src={ad.image} alt={ad.title} width={400} height={height} loading={eager ? 'eager' : 'lazy'} />
    );
  return (
    <div className="swiper-slide ad-slide" style={{ height }}>
      {ad.href ? (
        <SiteLink href={ad.href} newTab="noopener noreferrer sponsored">
          {media}
        </SiteLink>
      ) : (
        media
      )}
      <span className="ad-slide__mark">广告</span>
    </div>
  );
}

/** Calls `then` once the element is within one viewport height of the screen; returns a function that stops watching. */
function whenNearViewport(element: Element, then: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    then();
    return () => undefined;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      then();
    },
    { rootMargin: '100% 0px' },
  );
  observer.observe(element);
  return () => observer.disconnect();
}

export function AdCarousel(props: { ads: readonly Advertisement[]; height?: number; delayMs?: number; label?: string; eager?: boolean }) {
  const { ads, height = DEFAULT_SLIDE_HEIGHT_PX, delayMs, label = '广告', eager = false } = props;
  const root = useRef<HTMLDivElement>(null);
  const multiple = ads.length > 1;
  useEffect(() => {
    const element = root.current;
    if (!multiple || !element) return;
    let handle: { destroy(): void } | null = null;
    let cancelled = false;
    const start = () => {
      void import('./carousel-engine').then(({ startCarousel }) => {
        if (!cancelled) handle = startCarousel(element, autoplayDelay(delayMs));
      });
    };
    const stopWatching = whenNearViewport(element, start);
    return () => {
      cancelled = true;
      stopWatching();
      handle?.destroy();
    };
  }, [multiple, delayMs, ads]);
  if (ads.length === 0) return null;
  return (
    <section className="ad-carousel" aria-label={label}>
      <div ref={root} className="swiper" style={{ height }}>
        <div className="swiper-wrapper">
          {ads.map((ad, index) => (
            <Slide key={ad.id} ad={ad} height={height} eager={eager && index === 0} />
          ))}
        </div>
        {multiple && <div className="swiper-pagination" />}
      </div>
    </section>
  );
}
