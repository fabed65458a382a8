/**
 * Issue 29, item 5: headings a screen reader navigates by. Every page kind has exactly one h1 (home had none), and
 * a 视刻 category named 视刻 is not titled '视刻 · 视刻' (a section name repeated by its category's).
 */
import request from 'supertest';
import { pagesOfEveryKind } from '../../support/page-kinds';
import { startTestPortal, type TestPortal } from '../../support/portal';
import { shikeTitle } from '../../../shared/pages/shike/route';

describe('page headings', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => {
    await t.close();
  });

  it('every page kind has exactly one h1', async () => {
    const counts: Array<{ path: string; h1: number }> = [];
    for (const path of await pagesOfEveryKind(t.url)) {
      const html = (await request(t.url).get(path)).text;
      counts.push({ path, h1: (html.match(/<h1[\s>]/g) ?? []).length });
    }
    expect(counts.filter((entry) => entry.h1 !== 1)).toEqual([]);
  });

  it('titles /shike/2839 (the category named 视刻) once, and another category with the section before it', async () => {
    const html = (await request(t.url).get('/shike/2839')).text;
    const h1 = /<h1[^>]*>(.*?)<\/h1>/s.exec(html)?.[1] ?? '';
    const title = /<title>(.*?)<\/title>/s.exec(html)?.[1] ?? '';
    expect(h1).toContain('视刻');
    expect(`${h1} ${title}`).not.toContain('视刻 · 视刻');
    expect(shikeTitle('视刻')).toBe('视刻');
    expect(shikeTitle(' 视刻精选 ')).toBe('视刻精选');
    expect(shikeTitle('青春')).toBe('视刻 · 青春');
  });
});
