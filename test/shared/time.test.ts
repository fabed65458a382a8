import { formatDateTime, formatRelativeTime, isoDateTime, yearOf } from '../../shared/time';

// 2026-11-23 10:00:00 in Asia/Shanghai (02:00 UTC).
const NOW = Date.UTC(2026, 10, 23, 2, 0, 0) / 1000;

describe('formatRelativeTime (SPEC §9)', () => {
  it.each([
    [0, '刚刚'],
    [59, '刚刚'],
    [60, '1分钟前'],
    [3599, '59分钟前'],
    [3600, '1小时前'],
    [86399, '23小时前'],
    [86400, '1天前'],
    [7 * 86400 - 1, '6天前'],
  ])('%i seconds ago reads %s', (elapsed, expected) => {
    expect(formatRelativeTime(NOW - elapsed, NOW)).toBe(expected);
  });

  it('reads MM月DD日 from 7 days up to a year, in Shanghai time', () => {
    expect(formatRelativeTime(NOW - 7 * 86400, NOW)).toBe('11月16日');
    // 2026-03-01 23:30 UTC is already 2 March in Shanghai.
    expect(formatRelativeTime(Date.UTC(2026, 2, 1, 23, 30) / 1000, NOW)).toBe('03月02日');
  });

  it('reads YYYY-MM-DD from a year on', () => {
    expect(formatRelativeTime(Date.UTC(2025, 10, 23, 1, 0) / 1000, NOW)).toBe('2025-11-23');
    expect(formatRelativeTime(Date.UTC(2020, 0, 1) / 1000, NOW)).toBe('2020-01-01');
  });

  it('treats a time in the future as 刚刚', () => {
    expect(formatRelativeTime(NOW + 3600, NOW)).toBe('刚刚');
  });
});

describe('absolute times', () => {
  it('formats in Asia/Shanghai whatever the process time zone', () => {
    expect(formatDateTime(NOW)).toBe('2026-11-23 10:00');
    expect(isoDateTime(NOW)).toBe('2026-11-23T10:00:00+08:00');
    // 2026-12-31 17:00 UTC is already 2027 in Shanghai.
    expect(yearOf(Date.UTC(2026, 11, 31, 17, 0) / 1000)).toBe(2027);
  });
});
