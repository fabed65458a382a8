/**
 * A cached page in the form it is served from: the HTML cut at each occurrence of the nonce it was rendered
 * with, every piece kept as UTF-8 bytes and as raw deflate, compressed once when the page is stored. A response
 * puts its own nonce between the pieces (no CSP nonce is ever reused) and sends them as they are: identity, or
 * gzip spliced together by gzip-splice.ts; nothing is re-encoded or re-compressed per request.
 *
 * The pieces are deflated as one stream in which each nonce is replaced by a filler byte the page does not contain,
 * flushed to a byte boundary before and after every filler, the filler's own output dropped: references back
 * into earlier pieces keep the ratio of one whole stream, and none can point into a nonce (no match can contain
 * the filler), whose bytes differ in every response.
 */
import { constants, createDeflateRaw, type DeflateRaw, type ZlibOptions } from 'node:zlib';
import { fillBody, planBody, type BodyPlan, type Hole, type Part } from './body-plan';
import { FINAL_EMPTY_BLOCK, gapChecksums, GZIP_HEADER, MAX_STORED, splicedCrc, storedBlockHeader } from './gzip-splice';

/** Which pieces of a page: its UTF-8 text, or that text as raw deflate. */
export type PageForm = 'plain' | 'deflated';

/**
 * A page as a response is made from: both forms (a page just stored, or held in L1), or only the form one
 * response sends (a page read from Redis for that response: redis-page-read.ts), the other null.
 */
export interface HeldPage {
  etag: string;
  /** Byte length of the nonce the page was rendered with; a gzip response's nonce must have the same. */
  nonceLength: number;
  /** Byte length of each plain piece, whichever forms are held (a gzip trailer states the text's length). */
  plainLengths: readonly number[];
  /** The page cut at its nonces: one more piece than there are nonces. */
  plain: Buffer[] | null;
  /** Each piece as raw deflate: byte-aligned, no final block. */
  deflated: Buffer[] | null;
  /** The page's CRC-32 with zero bytes for its nonces, and the weights of the nonces' places (gzip-splice.ts). */
  zeroCrc: number;
  gapWeights: number;
}

/** A page with both forms: what is stored. */
export interface PrecompressedPage extends HeldPage {
  plain: Buffer[];
  deflated: Buffer[];
}

const FILLER = 0x00;
const STORED_PAGE_LEVEL = 6;
const EMPTY = Buffer.alloc(0);

/** The page's UTF-8 bytes cut at each occurrence of the nonce's (views into `bytes`, no copy). */
export function splitAtNonce(bytes: Buffer, nonce: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  let at = 0;
  for (let found = bytes.indexOf(nonce, at); found !== -1; found = bytes.indexOf(nonce, at)) {
    pieces.push(bytes.subarray(at, found));
    at = found + nonce.length;
  }
  pieces.push(bytes.subarray(at));
  return pieces;
}

/**
 * Level 6, not 9: on the portal's pages 9 costs about a quarter more CPU on every miss for under 0.5% fewer bytes
 * (60 KB detail: 13,005 vs 12,971 bytes), and misses are what a crawler's long tail costs.
 */
export async function precompressPage(html: string | Buffer, nonce: string, etag: string): Promise<PrecompressedPage> {
  const bytes = typeof html === 'string' ? Buffer.from(html, 'utf8') : html;
  const nonceBytes = Buffer.from(nonce, 'utf8');
  return precompressPieces(splitAtNonce(bytes, nonceBytes), nonceBytes.length, etag, bytes.includes(FILLER));
}

/** `plain` as splitAtNonce cut it; `holdsFiller` when the page itself contains the filler byte. */
export async function precompressPieces(plain: Buffer[], nonceLength: number, etag: string, holdsFiller: boolean): Promise<PrecompressedPage> {
  const deflated = await deflatePieces(plain, Buffer.alloc(nonceLength, FILLER), holdsFiller);
  return withChecksums({ etag, nonceLength, plain, deflated });
}

/**
 * One deflate stream over the pieces with the filler between them, every write flushed to a byte boundary; each
 * piece's output is what the stream gave for its write. Deflate runs on libuv's thread pool, so the event loop
 * keeps answering other readers (cached hits included) while a page is stored: one stream, not one per piece
 * (a stream per piece, each primed with the text before it as a dictionary, cost about four times the CPU).
 * A page holding the filler byte could match it: every write is then a full flush, which forgets the history,
 * so each piece is compressed on its own.
 */
function deflatePieces(plain: readonly Buffer[], filler: Buffer, holdsFiller: boolean): Promise<Buffer[]> {
  const options: ZlibOptions & { readableHighWaterMark: number } = {
    level: STORED_PAGE_LEVEL,
    memLevel: 9,
    flush: holdsFiller ? constants.Z_FULL_FLUSH : constants.Z_SYNC_FLUSH,
    // Never above it: the stream never holds back a write's callback waiting for its output to be read, so
    // each write's output is all in the buffer when its callback runs.
    readableHighWaterMark: Number.MAX_SAFE_INTEGER,
  };
  const stream = createDeflateRaw(options);
  return new Promise<Buffer[]>((resolve, reject) => {
    const deflated: Buffer[] = [];
    stream.once('error', reject);
    // Written all at once: the stream takes the writes one by one, in order, each finished before the next starts.
    plain.forEach((piece, index) => {
      if (index > 0) stream.write(filler, () => outputOf(stream));
      stream.write(piece, () => {
        deflated.push(outputOf(stream));
        if (deflated.length === plain.length) resolve(deflated);
      });
    });
  }).finally(() => {
    if (!stream.destroyed) stream.destroy();
  });
}

/** Everything the stream produced since it was last read. */
function outputOf(stream: DeflateRaw): Buffer {
  const output: unknown = stream.read();
  return Buffer.isBuffer(output) ? output : EMPTY;
}

function withChecksums(page: Omit<PrecompressedPage, 'zeroCrc' | 'gapWeights' | 'plainLengths'>): PrecompressedPage {
  return { ...page, plainLengths: page.plain.map((piece) => piece.length), ...gapChecksums(page.plain, page.nonceLength) };
}

/** Length of the page as sent with a nonce of `nonceLength` bytes. */
export function plainLength(page: HeldPage, nonceLength: number): number {
  return page.plainLengths.reduce((total, length) => total + length, 0) + (page.plainLengths.length - 1) * nonceLength;
}

/** The page with `nonce` in place, as chunks to write in order; null for a page held without its plain form. */
export function plainBody(page: PrecompressedPage, nonce: Buffer): Buffer[];
export function plainBody(page: HeldPage, nonce: Buffer): Buffer[] | null;
export function plainBody(page: HeldPage, nonce: Buffer): Buffer[] | null {
  const plans = plansOf(page, nonce.length);
  if (!plans.plain && page.plain) plans.plain = plainPlan(page.plain, nonce.length);
  return plans.plain ? fillBody(plans.plain, [nonce]) : null;
}

/**
 * The page with `nonce` in place as one gzip member; null when the nonce's length differs from the page's, or
 * for a page held without its deflated form.
 */
export function gzipBody(page: HeldPage, nonce: Buffer): Buffer[] | null {
  const plans = plansOf(page, nonce.length);
  if (plans.gzip === undefined && page.deflated) plans.gzip = gzipPlan(page, page.deflated, nonce.length);
  if (!plans.gzip) return null;
  const crc = Buffer.allocUnsafe(4);
  crc.writeUInt32LE(splicedCrc(page.zeroCrc, page.gapWeights, nonce) >>> 0, 0);
  return fillBody(plans.gzip, [nonce, crc]);
}

export function byteLength(chunks: readonly Buffer[]): number {
  let total = 0;
  for (const chunk of chunks) total += chunk.length;
  return total;
}

// ---- body plans (body-plan.ts): made on a page's first response, kept while the page is ----

const NONCE = 0;
const CRC = 1;

/** A page's plans for one nonce length, each made when first needed from a page holding its form. */
interface Plans {
  nonceLength: number;
  plain?: BodyPlan;
  /** Null for a nonce of another length than the page's: its pieces were compressed around that length. */
  gzip?: BodyPlan | null;
}

/**
 * By page object: L1 hands back the same page on every hit (page-cache.ts decodes a stored page once), and the
 * plans go with it. Their templates hold the short pieces again (about a sixth of `/home`'s bytes), outside
 * L1's byte count.
 */
const plans = new WeakMap<HeldPage, Plans>();

/**
 * Plans made lately, by what identifies a page's text: a page read from Redis with L1 off is a new object on
 * every hit with the same text, so it takes the plan made for the last one instead of making its own. The key is
 * the page's own checksum (the CRC-32 with its nonces zeroed, computed here) and piece lengths beside its ETag
 * (page-cache.ts makes that a SHA-1 of the text, but this module is given it), so two pages share a plan only if
 * all of these agree. Bounded; the oldest goes first. It keeps up to that many pages' bytes alive after L1 or a
 * hit let them go.
 */
const recentPlans = new Map<string, Plans>();
const RECENT_PLANS = 64;

function plansOf(page: HeldPage, nonceLength: number): Plans {
  let known = plans.get(page);
  if (known?.nonceLength === nonceLength) return known;
  const key = `${nonceLength}:${page.nonceLength}:${page.zeroCrc}:${page.plainLengths.join(',')}:${page.etag}`;
  known = recentPlans.get(key);
  if (!known) {
    known = { nonceLength };
    if (recentPlans.size >= RECENT_PLANS) recentPlans.delete(recentPlans.keys().next().value!);
    recentPlans.set(key, known);
  }
  plans.set(page, known);
  return known;
}

function plainPlan(plain: readonly Buffer[], nonceLength: number): BodyPlan {
  return planBody(interleave(plain, [{ fill: NONCE, length: nonceLength }]));
}

function gzipPlan(page: HeldPage, deflated: readonly Buffer[], nonceLength: number): BodyPlan | null {
  if (nonceLength !== page.nonceLength || nonceLength > MAX_STORED) return null;
  // Each nonce goes in as one stored block; the trailer is the CRC (per response) and the length (the page's).
  const nonce: Hole = { fill: NONCE, length: nonceLength };
  const isize = Buffer.allocUnsafe(4);
  isize.writeUInt32LE(plainLength(page, nonceLength) >>> 0, 0);
  return planBody([GZIP_HEADER, ...interleave(deflated, [storedBlockHeader(nonceLength), nonce]), FINAL_EMPTY_BLOCK, { fill: CRC, length: 4 }, isize]);
}

function interleave(pieces: readonly Buffer[], between: readonly Part[]): Part[] {
  const out: Part[] = [];
  for (let index = 0; index < pieces.length; index++) {
    if (index > 0) out.push(...between);
    out.push(pieces[index]!);
  }
  return out;
}

// ---- stored form (L1 holds it as it is; Redis as bytes) ----

export const PAGE_MAGIC = Buffer.from('PGZ1', 'latin1');
/** Magic and the layout's u32 length: where the layout starts. */
export const PAGE_HEAD_BYTES = PAGE_MAGIC.length + 4;

interface Layout {
  etag: string;
  nonceLength: number;
  plain: number[];
  deflated: number[];
  /** Kept so that a page read from Redis is not checksummed again on every hit. */
  zeroCrc: number;
  gapWeights: number;
}

/**
 * magic · u32 layout length · layout JSON · plain pieces · deflated pieces. Each form's pieces lie together, at
 * offsets the layout gives, so a reader can take one form alone (redis-page-read.ts).
 */
export function encodePage(page: PrecompressedPage): Buffer {
  const layout: Layout = {
    etag: page.etag,
    nonceLength: page.nonceLength,
    plain: page.plain.map((piece) => piece.length),
    deflated: page.deflated.map((piece) => piece.length),
    zeroCrc: page.zeroCrc,
    gapWeights: page.gapWeights,
  };
  const json = Buffer.from(JSON.stringify(layout), 'utf8');
  const head = Buffer.allocUnsafe(PAGE_HEAD_BYTES);
  PAGE_MAGIC.copy(head, 0);
  head.writeUInt32BE(json.length, PAGE_MAGIC.length);
  return Buffer.concat([head, json, ...page.plain, ...page.deflated]);
}

/** Throws on anything that is not a whole page in this form (a corrupted or foreign value). */
export function decodePage(bytes: Buffer): PrecompressedPage {
  const { layout, piecesAt } = layoutAt(bytes);
  let at = piecesAt;
  const take = (length: number) => {
    const piece = bytes.subarray(at, at + length);
    at += length;
    return piece;
  };
  const plain = layout.plain.map(take);
  const deflated = layout.deflated.map(take);
  if (at !== bytes.length) throw new Error('page length does not match its layout');
  return { ...factsOf(layout), plain, deflated };
}

/**
 * A page from its head (magic and layout, nothing after) and one form's pieces, given the lengths the layout
 * cuts them at. Throws when they do not agree with each other.
 */
export function decodePageForm(head: Buffer, form: PageForm, piecesOf: (lengths: readonly number[]) => Buffer[]): HeldPage {
  const { layout, piecesAt } = layoutAt(head);
  if (piecesAt !== head.length) throw new Error('page head runs past its layout');
  const lengths = layout[form];
  const pieces = piecesOf(lengths);
  if (pieces.length !== lengths.length || pieces.some((piece, index) => piece.length !== lengths[index])) {
    throw new Error('page pieces do not match its layout');
  }
  return { ...factsOf(layout), plain: form === 'plain' ? pieces : null, deflated: form === 'deflated' ? pieces : null };
}

function layoutAt(bytes: Buffer): { layout: Layout; piecesAt: number } {
  if (bytes.length < PAGE_HEAD_BYTES || !bytes.subarray(0, PAGE_MAGIC.length).equals(PAGE_MAGIC)) throw new Error('not a precompressed page');
  const piecesAt = PAGE_HEAD_BYTES + bytes.readUInt32BE(PAGE_MAGIC.length);
  if (piecesAt > bytes.length) throw new Error('truncated page layout');
  const layout = layoutOf(bytes.toString('latin1', PAGE_HEAD_BYTES, piecesAt));
  if (!layout) throw new Error('bad page layout');
  return { layout, piecesAt };
}

function factsOf(layout: Layout): Omit<HeldPage, 'plain' | 'deflated'> {
  const { etag, nonceLength, zeroCrc, gapWeights } = layout;
  return { etag, nonceLength, plainLengths: layout.plain, zeroCrc, gapWeights };
}

/**
 * Layouts read lately, by their bytes (latin1: equal text is equal bytes): a page read from Redis on every hit
 * brings the same layout each time, parsed and checked once. Bounded; the oldest goes first.
 */
const recentLayouts = new Map<string, Layout | null>();
const RECENT_LAYOUTS = 256;

function layoutOf(bytes: string): Layout | null {
  const known = recentLayouts.get(bytes);
  if (known !== undefined) return known;
  let layout: Layout | null = null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(bytes, 'latin1').toString('utf8'));
    if (isLayout(parsed)) layout = parsed;
  } catch {
    // not JSON: not a page
  }
  if (recentLayouts.size >= RECENT_LAYOUTS) recentLayouts.delete(recentLayouts.keys().next().value!);
  recentLayouts.set(bytes, layout);
  return layout;
}

function isLayout(value: unknown): value is Layout {
  const layout = value as Partial<Layout> | null;
  const uint32 = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 0xffffffff;
  const pieces = Array.isArray(layout?.plain) ? layout.plain.length : 0;
  return (
    typeof layout?.etag === 'string' &&
    Number.isInteger(layout.nonceLength) &&
    (layout.nonceLength ?? 0) > 0 &&
    uint32(layout.zeroCrc) &&
    uint32(layout.gapWeights) &&
    pieces > 0 &&
    [layout.plain, layout.deflated].every((list) => Array.isArray(list) && list.length === pieces && list.every(uint32))
  );
}
