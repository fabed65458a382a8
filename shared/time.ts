/**
 * Time display of SPEC §9, computed in Asia/Shanghai against an explicit "now" (the render's, carried to the
 * client) so server and browser produce the same text and hydration never mismatches.
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import { TIME_ZONE } from './constants';

dayjs.extend(utc);
dayjs.extend(timezone);

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function shanghai(unixSeconds: number): dayjs.Dayjs {
  return dayjs.unix(unixSeconds).tz(TIME_ZONE);
}

/**
 * '刚刚' under 60 s, 'n分钟前' under an hour, 'n小时前' under a day, 'n天前' under 7 days, 'MM月DD日' under a
 * year, else 'YYYY-MM-DD'. Times in the future (clock skew) read as '刚刚'.
 */
export function formatRelativeTime(unixSeconds: number, nowSeconds: number): string {
  const elapsed = nowSeconds - unixSeconds;
  if (elapsed < MINUTE) return '刚刚';
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}分钟前`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}小时前`;
  if (elapsed < 7 * DAY) return `${Math.floor(elapsed / DAY)}天前`;
  const then = shanghai(unixSeconds);
  if (then.isAfter(shanghai(nowSeconds).subtract(1, 'year'))) return then.format('MM月DD日');
  return then.format('YYYY-MM-DD');
}

/** 'YYYY-MM-DD HH:mm' in Asia/Shanghai, for article headers and reading-mode links. */
export function formatDateTime(unixSeconds: number): string {
  return shanghai(unixSeconds).format('YYYY-MM-DD HH:mm');
}

/** The four-digit year in Asia/Shanghai (the footer's copyright year). */
export function yearOf(unixSeconds: number): number {
  return shanghai(unixSeconds).year();
}

/** ISO 8601 with the +08:00 offset, for <time dateTime> and structured data. */
export function isoDateTime(unixSeconds: number): string {
  return shanghai(unixSeconds).format();
}
