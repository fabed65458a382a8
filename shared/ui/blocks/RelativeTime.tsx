/**
 * A time shown by the docs/product.md §9 rule. Server and hydration count from the render's "now" (the same text
 * on both sides); from then on from the browser's clock, read again every 10 s (shared/ui/lib/minute-clock.ts).
 * Nothing at all for a date the CMS did not send usably (null: docs/security.md, "Dates from the CMS").
 */
import { formatRelativeTime, isoDateTime } from '../../time';
import { usePage } from '../context';
import { useMinuteClock } from '../lib/minute-clock';

export function RelativeTime({ unixSeconds }: { unixSeconds: number | null }) {
  // Before the early return: a hook is called on every render, date or not.
  const now = useMinuteClock(usePage().now);
  if (unixSeconds === null) return null;
  return <time dateTime={isoDateTime(unixSeconds)}>{formatRelativeTime(unixSeconds, now)}</time>;
}
