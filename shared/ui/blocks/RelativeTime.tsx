/** A time shown by the docs/product.md §9 rule, against the render's "now" so server and browser agree. */
import { formatRelativeTime, isoDateTime } from '../../time';
import { usePage } from '../context';

export function RelativeTime({ unixSeconds }: { unixSeconds: number }) {
  const { now } = usePage();
  return <time dateTime={isoDateTime(unixSeconds)}>{formatRelativeTime(unixSeconds, now)}</time>;
}
