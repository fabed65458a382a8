/**
 * A time shown by the docs/product.md §9 rule. Server and hydration count from the render's "now" (the same text
 * on both sides); from then on from the browser's clock, refreshed every minute (shared/ui/lib/minute-clock.ts).
 */
import { formatRelativeTime, isoDateTime } from '../../time';
import { usePage } from '../context';
import { useMinuteClock } from '../lib/minute-clock';

export function RelativeTime({ unixSeconds }: { unixSeconds: number }) {
  const now = useMinuteClock(usePage().now);
  return <time dateTime={isoDateTime(unixSeconds)}>{formatRelativeTime(unixSeconds, now)}</time>;
}
