/**
 * Time display of the portal, in China Standard Time against an explicit "now" (the render's on the server and
 * at hydration, the browser's clock afterwards: shared/ui/blocks/RelativeTime.tsx), so server and browser produce
 * the same text from the same inputs and hydration never mismatches. dayjs in UTC mode at the fixed +08:00
 * offset (China has had no daylight saving since 1991), so the process's own time zone never enters; neither the
 * `tz` plugin nor `utcOffset(480)`: docs/decisions/0050-dayjs-utc-fixed-offset.md. A list page formats the same
 * few hundred instants on every render, so each text is kept per instant, in tables bounded in size.
 */
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** UTC+8: China Standard Time (Asia/Shanghai), no daylight saving. */
const CHINA_OFFSET_SECONDS = 8 * HOUR;

/** Past this many texts a table starts again: enough for every instant of a few pages, bounded for a long-lived process. */
const MEMO_LIMIT = 4096;

/** `compute` kept per key; the table is emptied, not evicted entry by entry, when it passes `MEMO_LIMIT`. */
function memoised<T>(compute: (key: number) => T): (key: number) => T {
  const table = new Map<number, T>();
  return (key) => {
    const held = table.get(key);
    if (held !== undefined) return held;
    if (table.size >= MEMO_LIMIT) table.clear();
    const value = compute(key);
    table.set(key, value);
    return value;
  };
}

/** An instant as a UTC-mode dayjs whose fields are the wall clock in China Standard Time. */
function chinaClock(unixSeconds: number): Dayjs {
  return dayjs.utc((Math.floor(unixSeconds) + CHINA_OFFSET_SECONDS) * 1000);
}

/** The same wall-clock time a calendar year before "now" (29 February steps back to the 28th), as Unix seconds. */
const yearBefore = memoised((nowSeconds) => chinaClock(nowSeconds).subtract(1, 'year').unix() - CHINA_OFFSET_SECONDS);
const monthDay = memoised((unixSeconds) => chinaClock(unixSeconds).format('MM月DD日'));
const calendarDate = memoised((unixSeconds) => chinaClock(unixSeconds).format('YYYY-MM-DD'));
const dateTime = memoised((unixSeconds) => chinaClock(unixSeconds).format('YYYY-MM-DD HH:mm'));
const isoText = memoised((unixSeconds) => chinaClock(unixSeconds).format('YYYY-MM-DDTHH:mm:ss[+08:00]'));

/**
 * '刚刚' under 60 s, 'n分钟前' under an hour, 'n小时前' under a day, 'n天前' under 7 days, 'MM月DD日' under a
 * calendar year, else 'YYYY-MM-DD'. Times in the future (clock skew) read as '刚刚'.
 */
export function formatRelativeTime(unixSeconds: number, nowSeconds: number): string {
  const elapsed = nowSeconds - unixSeconds;
  if (elapsed < MINUTE) return '刚刚';
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)}分钟前`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)}小时前`;
  if (elapsed < 7 * DAY) return `${Math.floor(elapsed / DAY)}天前`;
  return unixSeconds > yearBefore(nowSeconds) ? monthDay(unixSeconds) : calendarDate(unixSeconds);
}

/** 'YYYY-MM-DD HH:mm' in China Standard Time, for article headers and reading-mode links. */
export function formatDateTime(unixSeconds: number): string {
  return dateTime(unixSeconds);
}

/** The four-digit year in China Standard Time (the footer's copyright year). */
export function yearOf(unixSeconds: number): number {
  return chinaClock(unixSeconds).year();
}

/** ISO 8601 with the +08:00 offset, for <time dateTime> and structured data. */
export function isoDateTime(unixSeconds: number): string {
  return isoText(unixSeconds);
}
