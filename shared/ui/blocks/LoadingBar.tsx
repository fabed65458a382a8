/**
 * The navigation loading bar (docs/product.md §9: 5 s, 200 ms throttle): a navigation that finishes within 200 ms shows
 * no bar at all, so quick page changes do not flicker; a longer one shows a bar that fills over 5 s.
 */
import { useEffect, useState } from 'react';

export const LOADING_BAR_THROTTLE_MS = 200;

export function LoadingBar({ active }: { active: boolean }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!active) {
      setShown(false);
      return;
    }
    const timer = window.setTimeout(() => setShown(true), LOADING_BAR_THROTTLE_MS);
    return () => window.clearTimeout(timer);
  }, [active]);
  return shown ? <div className="loading-bar" role="progressbar" aria-label="加载中" /> : null;
}
