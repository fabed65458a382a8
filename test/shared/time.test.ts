import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { formatDateTime, formatRelativeTime, isoDateTime, yearOf } from '../../shared/time';

const utc = (...fields: [number, number, number, number?, number?, number?]): number => Date.UTC(...fields) / 1000;

// 2026-11-23 10:00:00 in China Standard Time (02:00 UTC).
const NOW = utc(2026, 10, 23, 2, 0, 0);

describe('formatRelativeTime', () => {
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

  it('reads MM月DD日 from 7 days up to a year, in China time', () => {
    expect(formatRelativeTime(NOW - 7 * 86400, NOW)).toBe('11月16日');
    // 2026-03-01 23:30 UTC is already 2 March in Shanghai.
    expect(formatRelativeTime(utc(2026, 2, 1, 23, 30), NOW)).toBe('03月02日');
  });

  it('reads YYYY-MM-DD from a year on', () => {
    expect(formatRelativeTime(utc(2025, 10, 23, 1, 0), NOW)).toBe('2025-11-23');
    expect(formatRelativeTime(utc(2020, 0, 1), NOW)).toBe('2020-01-01');
  });

  it('switches to YYYY-MM-DD exactly one calendar year back, to the second', () => {
    const yearBack = utc(2025, 10, 23, 2, 0, 0);
    expect(formatRelativeTime(yearBack + 1, NOW)).toBe('11月23日');
    expect(formatRelativeTime(yearBack, NOW)).toBe('2025-11-23');
  });

  it('counts the year back from 29 February as from the 28th', () => {
    // 2028-02-29 12:00 in Shanghai; a year back is 2027-02-28 12:00 there (04:00 UTC).
    const leapNow = utc(2028, 1, 29, 4, 0, 0);
    expect(formatRelativeTime(utc(2027, 1, 28, 4, 0, 1), leapNow)).toBe('02月28日');
    expect(formatRelativeTime(utc(2027, 1, 28, 4, 0, 0), leapNow)).toBe('2027-02-28');
  });

  it('dates a time by the Shanghai day around midnight, not the UTC one', () => {
    const now = utc(2026, 6, 20, 12);
    // 15:59:59 UTC is 23:59:59 in Shanghai; 16:00 UTC is already the next day there.
    expect(formatRelativeTime(utc(2026, 6, 1, 15, 59, 59), now)).toBe('07月01日');
    expect(formatRelativeTime(utc(2026, 6, 1, 16, 0, 0), now)).toBe('07月02日');
  });

  it.each([
    // [now in UTC, time in UTC, text]: a calendar year back at month ends, the year's turn and 29 February.
    [utc(2027, 2, 31, 4), utc(2026, 2, 31, 4, 0, 1), '03月31日'],
    [utc(2027, 2, 31, 4), utc(2026, 2, 31, 4, 0, 0), '2026-03-31'],
    // 2027-01-01 00:30 in Shanghai: a year back is 2026-01-01 00:30 there, still 2025 in UTC.
    [utc(2026, 11, 31, 16, 30), utc(2025, 11, 31, 16, 30, 1), '01月01日'],
    [utc(2026, 11, 31, 16, 30), utc(2025, 11, 31, 16, 29, 59), '2026-01-01'],
    // From 2029-02-28 a year back is 2028-02-28: 29 February 2028 is inside the year.
    [utc(2029, 1, 28, 4), utc(2028, 1, 29, 4), '02月29日'],
    [utc(2029, 1, 28, 4), utc(2028, 1, 28, 4), '2028-02-28'],
  ])('from %i, %i reads %s', (now, then, expected) => {
    expect(formatRelativeTime(then, now)).toBe(expected);
  });

  it('counts whole days across a month and a year end', () => {
    // 2027-01-02 01:00 in Shanghai; 2026-12-31 01:00 there is two days back, 2026-12-26 01:00 seven.
    const now = utc(2027, 0, 1, 17);
    expect(formatRelativeTime(utc(2026, 11, 30, 17), now)).toBe('2天前');
    expect(formatRelativeTime(utc(2026, 11, 25, 17, 0, 1), now)).toBe('6天前');
    expect(formatRelativeTime(utc(2026, 11, 25, 17), now)).toBe('12月26日');
  });

  it('treats a time in the future as 刚刚', () => {
    expect(formatRelativeTime(NOW + 3600, NOW)).toBe('刚刚');
  });
});

describe('absolute times', () => {
  it('formats in China Standard Time', () => {
    expect(formatDateTime(NOW)).toBe('2026-11-23 10:00');
    expect(isoDateTime(NOW)).toBe('2026-11-23T10:00:00+08:00');
  });

  it.each([
    // [UTC instant, Shanghai date-time, ISO, year]
    [utc(2026, 11, 31, 15, 59, 59), '2026-12-31 23:59', '2026-12-31T23:59:59+08:00', 2026],
    [utc(2026, 11, 31, 16, 0, 0), '2027-01-01 00:00', '2027-01-01T00:00:00+08:00', 2027],
    [utc(2027, 0, 1, 0, 0, 0), '2027-01-01 08:00', '2027-01-01T08:00:00+08:00', 2027],
    [utc(2028, 1, 28, 16, 0, 0), '2028-02-29 00:00', '2028-02-29T00:00:00+08:00', 2028],
    [utc(2026, 5, 30, 16, 5, 9), '2026-07-01 00:05', '2026-07-01T00:05:09+08:00', 2026],
    [utc(2026, 0, 31, 15, 59, 59), '2026-01-31 23:59', '2026-01-31T23:59:59+08:00', 2026],
    [utc(2026, 0, 31, 16, 0, 0), '2026-02-01 00:00', '2026-02-01T00:00:00+08:00', 2026],
    [utc(2027, 1, 28, 16, 0, 0), '2027-03-01 00:00', '2027-03-01T00:00:00+08:00', 2027],
    [utc(2028, 1, 29, 15, 59, 59), '2028-02-29 23:59', '2028-02-29T23:59:59+08:00', 2028],
    [utc(2000, 1, 28, 16, 0, 0), '2000-02-29 00:00', '2000-02-29T00:00:00+08:00', 2000],
  ])('%i is %s in Shanghai at the day and year edges', (instant, dateTime, iso, year) => {
    expect(formatDateTime(instant)).toBe(dateTime);
    expect(isoDateTime(instant)).toBe(iso);
    expect(yearOf(instant)).toBe(year);
  });

  describe.each(['UTC', 'America/New_York', 'Asia/Shanghai', 'Australia/Lord_Howe'])('with the process in %s', (zone) => {
    const saved = process.env.TZ;
    beforeAll(() => {
      process.env.TZ = zone;
    });
    afterAll(() => {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    });

    it('gives the same text (a local daylight-saving gap changes nothing)', () => {
      // 2025-03-08 18:36 UTC is 2025-03-09 02:36 in Shanghai, a wall-clock time that does not exist in New York
      // (clocks sprang from 02:00 to 03:00 that night): dayjs' tz plugin, which builds the Shanghai time in the
      // process's zone, printed 03:36 there.
      const instant = utc(2025, 2, 8, 18, 36, 24);
      expect(formatDateTime(instant)).toBe('2025-03-09 02:36');
      expect(isoDateTime(instant)).toBe('2025-03-09T02:36:24+08:00');
      expect(formatRelativeTime(instant, NOW)).toBe('2025-03-09');
      expect(formatRelativeTime(utc(2026, 2, 8, 18, 36, 24), NOW)).toBe('03月09日');
    });
  });
});

describe('in a process started in another time zone', () => {
  // The cases above change TZ inside this process; this runs the module as bundled for the server in node
  // processes started with TZ set, as a server outside China would be.
  let dir: string;
  let bundle: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-time-'));
    bundle = path.join(dir, 'time.cjs');
    buildSync({
      entryPoints: [path.join(__dirname, '../../shared/time.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: bundle,
      logLevel: 'silent',
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const script = `
    const time = require(process.argv[1]);
    const now = Date.UTC(2028, 1, 29, 4) / 1000;
    const instants = [Date.UTC(2025, 2, 8, 18, 36, 24), Date.UTC(2026, 10, 2, 5, 30), Date.UTC(2027, 11, 31, 16), Date.UTC(2028, 1, 28, 16)];
    process.stdout.write(JSON.stringify({ zone: Intl.DateTimeFormat().resolvedOptions().timeZone, texts: instants.map((ms) => {
      const seconds = ms / 1000;
      return [time.formatDateTime(seconds), time.isoDateTime(seconds), time.formatRelativeTime(seconds, now), time.yearOf(seconds)];
    }) }));`;

  it.each(['America/New_York', 'Europe/London', 'Pacific/Chatham', 'Asia/Shanghai'])('gives the same text with TZ=%s', (zone) => {
    const output = execFileSync(process.execPath, ['-e', script, bundle], { env: { ...process.env, TZ: zone }, encoding: 'utf8' });
    const result = JSON.parse(output) as { zone: string; texts: unknown };
    expect(result.zone).toBe(zone);
    expect(result.texts).toEqual([
      ['2025-03-09 02:36', '2025-03-09T02:36:24+08:00', '2025-03-09', 2025],
      ['2026-11-02 13:30', '2026-11-02T13:30:00+08:00', '2026-11-02', 2026],
      ['2028-01-01 00:00', '2028-01-01T00:00:00+08:00', '01月01日', 2028],
      ['2028-02-29 00:00', '2028-02-29T00:00:00+08:00', '12小时前', 2028],
    ]);
  });
});
