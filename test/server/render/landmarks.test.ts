/**
 * Issue 29, items 2 and 5: a screen reader's landmark list names each landmark once. On every page kind, no two
 * navigation, complementary, search or region landmarks share a name (two of one name cannot be told apart).
 */
import request from 'supertest';
import { pagesOfEveryKind } from '../../support/page-kinds';
import { startTestPortal, type TestPortal } from '../../support/portal';

/** The names of a page's labelled landmarks, by element: nav, aside, section and search forms. */
function landmarkNames(html: string): string[] {
  return [...html.matchAll(/<(nav|aside|section|form|header|footer)\b([^>]*)>/g)]
    .map((match) => ({ tag: match[1]!, attributes: match[2]! }))
    .filter(({ tag, attributes }) => tag !== 'form' || attributes.includes('role="search"'))
    .map(({ tag, attributes }) => {
      const name = /aria-label="([^"]*)"/.exec(attributes)?.[1];
      return name === undefined ? null : `${tag === 'form' ? 'search' : tag}:${name}`;
    })
    .filter((name): name is string => name !== null);
}

describe('landmarks', () => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal();
  });
  afterAll(async () => {
    await t.close();
  });

  it('names each landmark of every page kind once', async () => {
    const repeated: string[] = [];
    for (const path of await pagesOfEveryKind(t.url)) {
      const names = landmarkNames((await request(t.url).get(path)).text);
      const twice = [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
      for (const name of twice) repeated.push(`${path} ${name}`);
    }
    expect(repeated).toEqual([]);
  });
});
