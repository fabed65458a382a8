/**
 * Advertising carousel (docs/product.md §2, §3): image or video slides, every slide rendered by the server in
 * swiper's markup. Swiper (its own chunk) loads only for two or more slides within a screen of the viewport, then
 * autoplays (5–8 s, held under pointer or focus, paused for reduced motion) and shows its keyboard controls
 * (carousel-engine.ts); without it there are no controls, so none is dead. The CMS gives no media size, so a slide
 * never crops: the picture keeps its aspect at the slot's height with the title beside a narrow one, and on a
 * phone the slot takes its picture's proportions (docs/decisions/0150-compact-phone-header.md).
 */
import { useEffect, useRef, useState, type CSSProperties, type ReactNode, type RefObject } from 'react';
import { autoplayDelay, DEFAULT_SLIDE_HEIGHT_PX } from '../../carousel';
import type { Advertisement } from '../../types/entities';
import type { CarouselHandle } from './carousel-engine';
import { SiteLink } from './SiteLink';
import { adSrc } from '../../image-sizes';
import { useImages } from '../context';

/**
 * Plays a muted ad video while any of it is on screen and pauses it when it leaves (a slide swiper moved away, a
 * carousel scrolled past): with `autoplay`, every video ad of a page (five on the home page) was fetched, decoded
 * and composited while the page loaded, off screen or not. Not at all for a reader who asks for reduced motion:
 * the poster stays.
 */
function usePlayWhileVisible(ref: RefObject<HTMLVideoElement | null>): void {
  useEffect(() => {
    const video = ref.current;
    if (!video || typeof IntersectionObserver === 'undefined') return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    const observer = new IntersectionObserver((entries) => {
      // One element observed: its last entry is where it is now (earlier ones are changes since undone).
      if (entries[entries.length - 1]?.isIntersecting) void video.play().catch(() => undefined);
      else video.pause();
    });
    observer.observe(video);
    return () => {
      observer.disconnect();
      video.pause();
    };
  }, [ref]);
}

function AdVideo({ ad, height }: { ad: Advertisement; height: number }) {
  const video = useRef<HTMLVideoElement>(null);
  usePlayWhileVisible(video);
  const images = useImages();
  return <video ref={video} src={ad.video} poster={adSrc(ad.image, images, height)} muted loop playsInline preload="none" height={height} />;
}

function AdMedia({ ad, height, eager }: { ad: Advertisement; height: number; eager: boolean }) {
  const images = useImages();
  // Unlabelled: the title beside it names the ad (the link's text), so a screen reader hears it once.
  return ad.type === 2 && ad.video ? (
    <AdVideo ad={ad} height={height} />
  ) : (
    <img src={adSrc(ad.image, images, height)} alt="" height={height} loading={eager ? 'eager' : 'lazy'} />
  );
}

function Slide({ ad, height, eager }: { ad: Advertisement; height: number; eager: boolean }) {
  const body: ReactNode = (
    <>
      <AdMedia ad={ad} height={height} eager={eager} />
      <span className="ad-slide__title">
        <span>{ad.title}</span>
      </span>
    </>
  );
  return (
    <div className="swiper-slide ad-slide">
      {ad.href ? (
        <SiteLink href={ad.href} newTab="noopener noreferrer sponsored" className="ad-slide__body">
          {body}
        </SiteLink>
      ) : (
        <span className="ad-slide__body">{body}</span>
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

/**
 * The slot's height as a custom property, not a height: a desktop slot is that high (client/styles/main.css), a
 * phone's gives way to its picture's own proportions, the picture no higher than it (issue 38, item 4).
 */
function slotHeight(height: number): CSSProperties {
  return { '--ad-slot-height': `${height}px` } as CSSProperties;
}

export interface AdCarouselProps {
  ads: readonly Advertisement[];
  height?: number;
  delayMs?: number;
  label?: string;
  eager?: boolean;
  /** The CMS position of a home slot (docs/product.md §3), written as data-ad-slot. */
  slot?: number;
}

export function AdCarousel(props: AdCarouselProps) {
  const { ads, height = DEFAULT_SLIDE_HEIGHT_PX, delayMs, label = '广告', eager = false, slot } = props;
  const area = useRef<HTMLElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const prev = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const handle = useRef<CarouselHandle | null>(null);
  const [started, setStarted] = useState(false);
  const [stopped, setStopped] = useState(false);
  const multiple = ads.length > 1;
  useEffect(() => {
    const element = root.current;
    if (!multiple || !element || !area.current || !prev.current || !next.current) return;
    const controls = { area: area.current, prev: prev.current, next: next.current };
    let cancelled = false;
    const start = () => {
      import('./carousel-engine').then(
        ({ startCarousel }) => {
          if (cancelled) return;
          const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
          handle.current = startCarousel(element, controls.area, {
            delayMs: autoplayDelay(delayMs),
            prev: controls.prev,
            next: controls.next,
            stopped: reducedMotion,
          });
          setStopped(reducedMotion);
          setStarted(true);
        },
        // A chunk that failed to load (offline, a deploy replaced it) leaves the slides as the server drew them,
        // side by side without autoplay or controls: nothing for the reader to act on, so no error either (issue 29).
        () => undefined,
      );
    };
    const stopWatching = whenNearViewport(element, start);
    return () => {
      cancelled = true;
      stopWatching();
      handle.current?.destroy();
      handle.current = null;
      setStarted(false);
    };
  }, [multiple, delayMs, ads]);
  const togglePause = () => {
    handle.current?.setStopped(!stopped);
    setStopped(!stopped);
  };
  if (ads.length === 0) return null;
  return (
    <section ref={area} className="ad-carousel" aria-label={label} data-ad-slot={slot}>
      <div ref={root} className="swiper" style={slotHeight(height)}>
        <div className="swiper-wrapper">
          {ads.map((ad, index) => (
            <Slide key={ad.id} ad={ad} height={height} eager={eager && index === 0} />
          ))}
        </div>
        {multiple && <div className="swiper-pagination" />}
      </div>
      {multiple && (
        <div className="ad-carousel__controls" hidden={!started}>
          <button ref={prev} type="button" className="ad-carousel__prev" aria-label="上一张" />
          <button
            type="button"
            className={stopped ? 'ad-carousel__play' : 'ad-carousel__pause'}
            aria-label={stopped ? '继续轮播' : '暂停轮播'}
            onClick={togglePause}
          />
          <button ref={next} type="button" className="ad-carousel__next" aria-label="下一张" />
        </div>
      )}
    </section>
  );
}
