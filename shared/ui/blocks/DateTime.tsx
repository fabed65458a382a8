/** An absolute time ('YYYY-MM-DD HH:mm' in China Standard Time) as a <time>; nothing for a date the CMS did not send usably. */
import { formatDateTime, isoDateTime } from '../../time';

export function DateTime({ unixSeconds }: { unixSeconds: number | null }) {
  if (unixSeconds === null) return null;
  return <time dateTime={isoDateTime(unixSeconds)}>{formatDateTime(unixSeconds)}</time>;
}
