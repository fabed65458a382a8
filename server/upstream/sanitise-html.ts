/**
 * Article bodies come from the CMS as HTML that editors and importers have touched: sanitize-html keeps the
 * markup a news article needs and drops scripts, handlers, styles, frames and non-http(s) URLs.
 *
 * sanitize-html works in one synchronous pass, about a second per megabyte: one long body would hold up every
 * other reader of the process, cached hits included. A long body is therefore cut between its top-level
 * elements into slices of about SLICE_CHARS, each sanitised in its own turn of the event loop. Cutting only
 * where no element is open keeps the result the same as one pass; each slice is sanitised on its own either way,
 * so no cut can let markup through. The size limit on upstream answers (UPSTREAM_MAX_BODY_BYTES) bounds the rest.
 */
import { Parser } from 'htmlparser2';
import sanitizeHtml from 'sanitize-html';
import { setImmediate as nextTurn } from 'node:timers/promises';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'h2',
    'h3',
    'h4',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'span',
    'blockquote',
    'ul',
    'ol',
    'li',
    'figure',
    'figcaption',
    'img',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'caption',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading', 'decoding'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // Links in a body leave the portal: new tab, no opener, no referrer leak of the reader's page.
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' },
    }),
    // The CMS's own srcset, if any, is not kept: its URLs would escape the scheme check above and its sizes know
    // nothing of this layout. The article column's candidates are added as the body is drawn
    // (../../shared/image-sizes.ts withBodyImageCandidates).
    img: (tagName, { srcset: _cmsSrcset, sizes: _cmsSizes, ...attribs }) => ({ tagName, attribs: { ...attribs, loading: 'lazy', decoding: 'async' } }),
  },
};

/** About 30–60 ms of work on a busy core: the most one turn of the event loop spends on a body. */
export const SLICE_CHARS = 64 * 1024;

export function sanitiseArticleHtml(html: string): string {
  return withHeadingsFromH2(sanitizeHtml(html, OPTIONS));
}

/**
 * The article's title is the page's h1, so the body's headings start at h2: editors often write sections as h3
 * or h4 straight under the title, which skips a level for screen-reader users navigating by heading (axe's
 * heading-order). The body's levels are raised together, keeping their order; a body with an h2 is left as is.
 * Works on sanitised output, where a heading tag is exactly `<hN>` or `</hN>` (no attributes are kept on them and
 * text is escaped).
 */
function withHeadingsFromH2(html: string): string {
  const levels = [...html.matchAll(/<h([2-6])>/g)].map((match) => Number(match[1]));
  if (levels.length === 0) return html;
  const raise = Math.min(...levels) - 2;
  if (raise === 0) return html;
  return html.replace(/<(\/?)h([2-6])>/g, (_tag, close: string, level: string) => `<${close}h${Number(level) - raise}>`);
}

/** The same result as sanitiseArticleHtml, in bounded slices with the event loop free between them. */
export async function sanitiseArticleHtmlInSlices(html: string): Promise<string> {
  if (html.length <= SLICE_CHARS) return sanitiseArticleHtml(html);
  const cuts = await topLevelBoundaries(html);
  const parts: string[] = [];
  let start = 0;
  for (const cut of [...cuts, html.length]) {
    if (cut - start < SLICE_CHARS && cut < html.length) continue;
    parts.push(sanitizeHtml(html.slice(start, cut), OPTIONS));
    start = cut;
    await nextTurn();
  }
  // Heading levels are a property of the whole body, not of a slice.
  return withHeadingsFromH2(parts.join(''));
}

/**
 * Offsets just after each top-level element or comment, found by a streaming parse fed a slice per turn. A
 * close that the parser only implied (a <p> ended by the next <p>, a void element) is not a boundary: the
 * source text there is still inside the element.
 */
async function topLevelBoundaries(html: string): Promise<number[]> {
  const boundaries: number[] = [];
  let depth = 0;
  const parser: Parser = new Parser({
    onopentag: () => {
      depth += 1;
    },
    onclosetag: (_name, isImplied) => {
      depth = Math.max(0, depth - 1);
      if (depth === 0 && !isImplied) boundaries.push(parser.endIndex + 1);
    },
    oncommentend: () => {
      if (depth === 0) boundaries.push(parser.endIndex + 1);
    },
  });
  for (let offset = 0; offset < html.length; offset += SLICE_CHARS) {
    parser.write(html.slice(offset, offset + SLICE_CHARS));
    await nextTurn();
  }
  parser.end();
  return boundaries;
}
