/**
 * Feeds carry the CMS's text as text (docs/security.md): every title, summary, source and category name of a
 * category feed replaced by hostile text (markup, script, `]]>`, CDATA, comments, entities encoded once and
 * twice), through a rewriting server in front of the reference content API. Read the way a feed reader reads it
 * (XML parsed, then `<description>` and `<title>` parsed again as HTML), nothing is an element, and the reader
 * shows the characters the CMS sent.
 */
import { DomUtils, parseDocument } from 'htmlparser2';
import type { Document } from 'domhandler';
import request from 'supertest';
import { startReferenceApi } from '../../../scripts/reference-api/server';
import { HOME_CATID } from '../../../shared/constants';
import { MAIN_DOMAIN } from '../../../shared/sites';
import { startTestPortal, type ReferenceServer, type TestPortal } from '../../support/portal';
import { startRewritingUpstream, type RewritingUpstream } from '../../support/rewriting-upstream';
import { homeCategories } from '../../support/upstream-data';

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  'a ]]> b <![CDATA[ c ]]> d',
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&amp;lt;img src=x onerror=alert(1)&amp;gt;',
  '&#60;svg onload=alert(1)&#62; &#x3C;b&#x3E;',
  '<a href="javascript:alert(1)">x</a>',
  '<!-- --><iframe src=//evil.example>',
  'AT&T <3 a < b > c "q" \'s\'',
  '<style>*{display:none}</style>text',
] as const;

/** The hostile text an item gets, by its id, so each variant lands on some item of the feed. */
const textFor = (id: number, shift: number) => HOSTILE[(id + shift) % HOSTILE.length]!;

function rewrite(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  if (typeof record.id === 'number' && typeof record.description === 'string' && typeof record.title === 'string') {
    return { ...record, title: textFor(record.id, 0), list_title: '', description: textFor(record.id, 1), source: textFor(record.id, 2) };
  }
  if (typeof record.catname === 'string') return { ...record, catname: HOSTILE[0] };
  return value;
}

/** How a feed reader takes an element it renders as HTML: its XML text, parsed as an HTML document. */
function asHtml(text: string): Document {
  return parseDocument(text, { decodeEntities: true });
}

const elementsOf = (document: Document) => DomUtils.findAll(() => true, document.children);

describe('feeds carry the CMS text as text', () => {
  let reference: ReferenceServer;
  let rewriting: RewritingUpstream;
  let t: TestPortal;

  beforeAll(async () => {
    reference = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    rewriting = await startRewritingUpstream(reference, rewrite);
    t = await startTestPortal({ upstream: rewriting.asUpstream });
  });
  afterAll(async () => {
    await t.close();
    await rewriting.close();
    await reference.close();
  });

  it('no title, description or source is markup to a reader, and each reads as the CMS wrote it', async () => {
    const categories = await homeCategories(reference.url, HOME_CATID);
    const seen = new Set<string>();
    for (const category of categories.slice(0, 4)) {
      const res = await request(t.url).get(`/rss/${category.catid}.xml`).set('Host', MAIN_DOMAIN);
      expect(res.status).toBe(200);
      const feed = parseDocument(res.text, { xmlMode: true, decodeEntities: true });
      const items = DomUtils.getElementsByTagName('item', feed);
      expect(items.length).toBeGreaterThan(0);
      const channelTitle = DomUtils.textContent(DomUtils.getElementsByTagName('title', feed)[0]!);
      expect(elementsOf(asHtml(channelTitle))).toEqual([]);
      expect(DomUtils.textContent(asHtml(channelTitle))).toContain(HOSTILE[0]);
      for (const item of items) {
        const field = (name: string) => DomUtils.textContent(DomUtils.getElementsByTagName(name, item)[0]!);
        const id = Number(/\/(\d+)$/.exec(field('link'))?.[1]);
        for (const [name, shift] of [
          ['title', 0],
          ['description', 1],
          ['source', 2],
        ] as const) {
          const text = field(name);
          const html = asHtml(text);
          // Nothing the reader would render as an element, whatever it does with the element's text.
          expect([name, id, elementsOf(html).length]).toEqual([name, id, 0]);
          // And the reader shows what the CMS sent: a description (HTML to every reader) exactly; a title or source
          // (plain text to some readers, HTML to others) exactly as text with only '<' spelt '&lt;' (docs/security.md).
          const expected = name === 'description' ? textFor(id, shift) : textFor(id, shift).replace(/</g, '&lt;');
          expect([name, id, name === 'description' ? DomUtils.textContent(html) : text]).toEqual([name, id, expected]);
          seen.add(textFor(id, shift));
        }
      }
    }
    // Every hostile text reached some item of the feeds read.
    expect(HOSTILE.filter((text) => !seen.has(text))).toEqual([]);
  });
});
