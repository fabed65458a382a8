/**
 * What a client navigation does for readers who do not see the screen change, once the new page is on screen
 * (not on the first load, which the browser announced itself): a polite live region says the page's title, and
 * focus moves to the page's main heading, or to `main` when it has none, so keyboard and screen-reader users
 * start on the new page rather than on the link they left. Focus moves without scrolling: where the page scrolls
 * to (top, a #hash target, the place back/forward left) is the navigation's business. The same page shown again
 * (a #hash change) is no new page and does neither.
 */
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { usePage } from '../context';

/** The new page's `main h1` (or `main`), made focusable by script only, focused without scrolling. */
function focusMainHeading(): void {
  const target = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('main');
  if (!target) return;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

export function NavigationAnnouncer() {
  const page = usePage();
  const [announcement, setAnnouncement] = useState('');
  const shownPath = useRef<string | null>(null);

  const pageShown = useEffectEvent((path: string) => {
    const previous = shownPath.current;
    shownPath.current = path;
    if (previous === null || previous === path) return;
    setAnnouncement(page.head.title);
    focusMainHeading();
  });
  useEffect(() => pageShown(page.path), [page.path]);

  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-navigation-announcer="">
      {announcement}
    </div>
  );
}
