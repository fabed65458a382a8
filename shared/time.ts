/**
 * Time display of the portal, in China Standard Time against an explicit "now" (the render's, carried to the
 * client) so server and browser produce the same text and hydration never mismatches.
 *
 * China has kept one offset, UTC+8, with no daylight saving since 1991, so a wall-clock time there is the UTC
 * time eight hours later: plain arithmetic on `Date`'s UTC fields, the same in every runtime and process time
 * zone. A time-zone library (dayjs' tz plugin builds an `Intl.DateTimeFormat` per call) cost more CPU than the
 * rest of a page render, for an answer that never changes.
 */

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** UTC+8: China Standard Time (Asia/Shanghai), no daylight saving. */
const CHINA_OFFSET_SECONDS = 8 * HOUR;

/** Wall-clock fields of an instant in China Standard Time. */
interface ChinaTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function chinaTime(unixSeconds: number): ChinaTime {
  const shifted = new Date((Math.floor(unixSeconds) + CHINA_OFFSET_SECONDS) * 1000);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
  };
}

function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

function isoDate(time: ChinaTime): string {
  return `${time.year}-${pad2(time.month)}-${pad2(time.day)}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The same wall-clock time a calendar year earlier (29 February falls back to the 28th), as Unix seconds. */
function oneYearBefore(time: ChinaTime): number {
  const year = time.year - 1;
  const day = Math.min(time.day, daysInMonth(year, time.month));
  const wallClockAsUtc = Date.UTC(year, time.month - 1, day, time.hour, time.minute, time.second) / 1000;
  return wallClockAsUtc - CHINA_OFFSET_SECONDS;
}

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
  const then = chinaTime(unixSeconds);
  if (unixSeconds > oneYearBefore(chinaTime(nowSeconds))) return `${pad2(then.month)}月${pad2(then.day)}日`;
  return isoDate(then);
}

/** 'YYYY-MM-DD HH:mm' in China Standard Time, for article headers and reading-mode links. */
export function formatDateTime(unixSeconds: number): string {
  const time = chinaTime(unixSeconds);
  return `${isoDate(time)} ${pad2(time.hour)}:${pad2(time.minute)}`;
}

/** The four-digit year in China Standard Time (the footer's copyright year). */
export function yearOf(unixSeconds: number): number {
  return chinaTime(unixSeconds).year;
}

/** ISO 8601 with the +08:00 offset, for <time dateTime> and structured data. */
export function isoDateTime(unixSeconds: number): string {
  const time = chinaTime(unixSeconds);
  return `${isoDate(time)}T${pad2(time.hour)}:${pad2(time.minute)}:${pad2(time.second)}+08:00`;
}
