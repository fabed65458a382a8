/**
 * A cached page as it is sent: the same bytes for every reader (docs/security-headers.md, "One document for
 * every reader"). A page is rendered with a nonce on every script the portal writes (its own inline scripts and
 * React's), like any response streamed to one reader; when it is stored, `sealPage` takes that nonce out and
 * allows each of those scripts by its SHA-256 instead, so the stored page needs no per-response value in its
 * bytes or in its CSP. Only scripts that carried the render's nonce are hashed: a script that reached the page
 * any other way (an article body's, say) ran under no nonce before and runs under no hash now.
 *
 * The page is compressed when it is stored, in every form a response sends (identity, gzip, brotli), and a hit
 * writes one of them as it is: nothing is spliced, re-encoded or compressed per response.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { BytesMemo } from './bytes-memo';

/** The forms a page is held in, by the content coding each is sent with. */
export const PAGE_FORMS = ['identity', 'gzip', 'br'] as const;
export type PageForm = (typeof PAGE_FORMS)[number];

/**
 * A page as a response is made from: every form (a page just stored, or held in L1), or only the form one
 * response sends (a page read from Redis for that response: redis-page-read.ts), the others null.
 */
export interface HeldPage {
  /** Strong validator of the page's text; each form's ETag is made from it (etagOf). */
  etag: string;
  /** The CSP script sources allowing the page's scripts: `'sha256-…'` each, space-separated. */
  scripts: string;
  identity: Buffer | null;
  gzip: Buffer | null;
  br: Buffer | null;
}

/** A page with every form: what is stored. */
export interface StoredPage extends HeldPage {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/** A page's text without its render's nonce, and the hashes of the scripts that carried it. */
export interface SealedPage {
  html: Buffer;
  scripts: string;
}

const SCRIPT_END = Buffer.from('</script>', 'latin1');
const TAG_END = 0x3e; // '>'

/**
 * The page with `nonce` taken out of every `<script nonce="…">` the render wrote, and the SHA-256 of each such
 * script's text (what a browser hashes: the bytes between the start and end tags, as UTF-8). Null when the nonce
 * is left anywhere else in the page (an element this function does not know carried it): such a page is not
 * stored, since its scripts might not all run under the hashes.
 */
export function sealPage(html: Buffer, nonce: string): SealedPage | null {
  const opening = Buffer.from(`<script nonce="${nonce}"`, 'utf8');
  const parts: Buffer[] = [];
  const hashes = new Set<string>();
  let at = 0;
  for (let found = html.indexOf(opening, at); found !== -1; found = html.indexOf(opening, at)) {
    const textAt = html.indexOf(TAG_END, found + opening.length) + 1;
    const textEnd = textAt === 0 ? -1 : html.indexOf(SCRIPT_END, textAt);
    if (textEnd === -1) return null;
    hashes.add(`'sha256-${createHash('sha256').update(html.subarray(textAt, textEnd)).digest('base64')}'`);
    parts.push(html.subarray(at, found), SCRIPT_OPEN);
    at = found + opening.length;
  }
  parts.push(html.subarray(at));
  const sealed = parts.length === 1 ? html : Buffer.concat(parts);
  if (sealed.includes(nonce)) return null;
  return { html: sealed, scripts: [...hashes].join(' ') };
}

const SCRIPT_OPEN = Buffer.from('<script', 'latin1');

/** The strong ETag of a page's text in one form (RFC 9110 §8.8.3: each content coding is its own representation). */
export function etagOf(page: Pick<HeldPage, 'etag'>, form: PageForm): string {
  return form === 'identity' ? `"${page.etag}"` : `"${page.etag}-${form}"`;
}

/** The validator of a page's text, the same for every store of the same bytes. */
export function textEtag(html: Buffer): string {
  return createHash('sha256').update(html).digest('base64url').slice(0, 27);
}

const gzipped = promisify(gzip);
const brotlied = promisify(brotliCompress);

/**
 * gzip at level 6 (9 costs about a quarter more CPU on every store for under 0.5% fewer bytes), brotli at
 * BROTLI_LEVEL (docs/benchmark.md, "Storing a page: the seal and two compressions": the level whose cost keeps
 * an anonymous miss within its bound). Both run on libuv's thread pool, so cached hits keep being answered
 * while a page is stored.
 */
export const GZIP_LEVEL = 6;
export const BROTLI_LEVEL = 5;

/** The sealed page in every form a response sends. */
export async function compressPage(sealed: SealedPage): Promise<StoredPage> {
  const { html, scripts } = sealed;
  const [gzip, br] = await Promise.all([
    gzipped(html, { level: GZIP_LEVEL }),
    brotlied(html, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_LEVEL,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: html.length,
      },
    }),
  ]);
  return { etag: textEtag(html), scripts, identity: html, gzip, br };
}

/** The page's bytes in `form`; null for a page held without that form. */
export function formOf(page: HeldPage, form: PageForm): Buffer | null {
  return page[form];
}

// ---- stored form (L1 holds it as it is; Redis as bytes) ----

export const PAGE_MAGIC = Buffer.from('PGF2', 'latin1');
/** Magic and the layout's u32 length: where the layout starts. */
export const PAGE_HEAD_BYTES = PAGE_MAGIC.length + 4;

/** What precedes the forms: the page's facts and each form's length, in PAGE_FORMS order. */
interface Layout {
  etag: string;
  scripts: string;
  identity: number;
  gzip: number;
  br: number;
}

/**
 * magic · u32 layout length · layout JSON · identity · gzip · br. Each form lies whole at an offset the layout
 * gives, so a reader can take one form alone (redis-page-read.ts).
 */
export function encodePage(page: StoredPage): Buffer {
  const layout: Layout = { etag: page.etag, scripts: page.scripts, identity: page.identity.length, gzip: page.gzip.length, br: page.br.length };
  const json = Buffer.from(JSON.stringify(layout), 'utf8');
  const head = Buffer.allocUnsafe(PAGE_HEAD_BYTES);
  PAGE_MAGIC.copy(head, 0);
  head.writeUInt32BE(json.length, PAGE_MAGIC.length);
  return Buffer.concat([head, json, page.identity, page.gzip, page.br]);
}

/** Throws on anything that is not a whole page in this form (a corrupted or foreign value). */
export function decodePage(bytes: Buffer): StoredPage {
  const { layout, formsAt } = layoutAt(bytes);
  let at = formsAt;
  const take = (length: number) => {
    const form = bytes.subarray(at, at + length);
    at += length;
    return form;
  };
  const identity = take(layout.identity);
  const gzip = take(layout.gzip);
  const br = take(layout.br);
  if (at !== bytes.length) throw new Error('page length does not match its layout');
  return { etag: layout.etag, scripts: layout.scripts, identity, gzip, br };
}

/** A page from its head (magic and layout, nothing after) and one form's bytes. Throws when they do not agree. */
export function decodePageForm(head: Buffer, form: PageForm, bytes: Buffer): HeldPage {
  const { layout, formsAt } = layoutAt(head);
  if (formsAt !== head.length) throw new Error('page head runs past its layout');
  if (bytes.length !== layout[form]) throw new Error('page form does not match its layout');
  return { etag: layout.etag, scripts: layout.scripts, identity: null, gzip: null, br: null, [form]: bytes };
}

function layoutAt(bytes: Buffer): { layout: Layout; formsAt: number } {
  if (bytes.length < PAGE_HEAD_BYTES || !bytes.subarray(0, PAGE_MAGIC.length).equals(PAGE_MAGIC)) throw new Error('not a stored page');
  const formsAt = PAGE_HEAD_BYTES + bytes.readUInt32BE(PAGE_MAGIC.length);
  if (formsAt > bytes.length) throw new Error('truncated page layout');
  const layout = recentLayouts.valueOf(bytes.subarray(PAGE_HEAD_BYTES, formsAt), parseLayout);
  if (!layout) throw new Error('bad page layout');
  return { layout, formsAt };
}

/** Layouts read lately, by their bytes: a page read from Redis on every hit brings the same layout, parsed and checked once. */
const recentLayouts = new BytesMemo<Layout | null>(256);

function parseLayout(bytes: Buffer): Layout | null {
  try {
    const parsed: unknown = JSON.parse(bytes.toString('utf8'));
    return isLayout(parsed) ? parsed : null;
  } catch {
    // not JSON: not a page
    return null;
  }
}

/** Script sources as sealPage writes them, and nothing else (a stored value must not widen the CSP). */
const SCRIPT_SOURCES = /^(?:'sha256-[A-Za-z0-9+/]{43}=')(?: 'sha256-[A-Za-z0-9+/]{43}=')*$|^$/;

function isLayout(value: unknown): value is Layout {
  const layout = value as Partial<Layout> | null;
  const uint32 = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 0xffffffff;
  return (
    typeof layout?.etag === 'string' &&
    /^[A-Za-z0-9_-]+$/.test(layout.etag) &&
    typeof layout.scripts === 'string' &&
    SCRIPT_SOURCES.test(layout.scripts) &&
    PAGE_FORMS.every((form) => uint32(layout[form]))
  );
}
