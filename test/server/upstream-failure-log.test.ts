/**
 * What the log says while the content API fails (server/upstream/failure-log.ts), on a real portal and the reference
 * API answering 500 to everything: one line per call family when it starts failing, however many pages are asked
 * (it was one line with a stack per failed call: seven for each page), one a period while it goes on, and one when
 * it answers again.
 */
import request from 'supertest';
import { startTestPortal, waitForLog, type TestPortal } from '../support/portal';

/** Short, so the "still failing" line comes within the test; long enough that a round of pages fits in one period. */
const EVERY_MS = 3000;

describe('failing content calls in the log', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal({ outageLogEveryMs: EVERY_MS });
  });
  afterAll(() => t.close());

  const failedLines = () => t.logs.filter((line) => line.msg === 'upstream call failed');

  it('one line per call family when it starts failing, one a period while it goes on, one when it answers again', async () => {
    t.upstream.api.control.setFailures([{ path: '/', mode: 'http500' }]);
    const pages = ['/', '/about', '/V1/2728', '/headlineNews', '/search/5rWZ5rGf/1', '/topic/2751'];
    const started = Date.now();
    for (const path of pages) await request(t.url).get(path);
    for (const path of pages) await request(t.url).get(path);
    // Each family named once, however many of its calls failed.
    const calls = failedLines().map((line) => line.call);
    expect(calls.length).toBeGreaterThan(1);
    expect(new Set(calls).size).toBe(calls.length);
    expect(failedLines()[0]!.err).toMatchObject({ message: expect.stringContaining('500') });
    // A page that failed for it says which call, as a warning with no stack: the family's line has the error.
    const pageLines = t.logs.filter((line) => /a content call failed/.test(String(line.msg)));
    expect(pageLines.length).toBeGreaterThan(0);
    for (const line of pageLines) expect(line).toMatchObject({ level: 40, call: expect.any(String) });
    expect(t.logs.filter((line) => Number(line.level) >= 50)).toEqual([]);

    // Asked on, a family says it goes on once a period has passed since its first line, with the count since then.
    let goesOn: Record<string, unknown> | undefined;
    const deadline = Date.now() + 30_000;
    while (!goesOn && Date.now() < deadline) {
      await request(t.url).get('/about');
      goesOn = t.logs.find((line) => /still failing/.test(String(line.msg)));
    }
    expect(goesOn).toMatchObject({ level: 40, call: expect.any(String), failures: expect.any(Number), failingSeconds: expect.any(Number) });
    expect(Date.parse(String(goesOn!.time)) - started).toBeGreaterThanOrEqual(EVERY_MS - 100);
    expect(goesOn!.failures as number).toBeGreaterThanOrEqual(1);

    // Answering again closes it, once per family that had failed.
    t.upstream.api.control.reset();
    expect((await request(t.url).get('/about')).status).toBe(200);
    const back = await waitForLog(t, (line) => /answers again/.test(String(line.msg)));
    expect(back).toMatchObject({ level: 30, call: expect.any(String), failures: expect.any(Number) });
    expect(calls).toContain(back.call);

    // A new spell of failures is told like the first.
    const before = failedLines().length;
    t.upstream.api.control.setFailures([{ path: '/', mode: 'http500' }]);
    await request(t.url).get('/contribute');
    expect(failedLines().length).toBeGreaterThan(before);
  });
});
