/**
 * Accept-Encoding, read one way by every step that negotiates on it: the cached-hit path in front of Express,
 * the page handler and the compression middleware. Negotiation itself is negotiator's (the library Express and
 * compression use); this module only puts the header in the form it reads correctly. Everything in the header
 * is case-insensitive (codings, RFC 9110 §8.4.1; the `q` parameter, §12.4.2), but negotiator reads only a
 * lower-case `q` (`gzip;Q=0` would be gzip at q=1), and knows `x-gzip` (§8.4.1.3: the same coding) by no name.
 */
import type { IncomingMessage, RequestListener } from 'node:http';
import Negotiator from 'negotiator';
import type { PageForm } from '../cache/stored-page';

const MEMO_LIMIT = 256;
const canonicalForms = new Map<string, string>();
const gzipAnswers = new Map<string, boolean>();
const formAnswers = new Map<string, PageForm>();

/** Browsers send a handful of distinct headers, so answers are remembered for them. */
function remembered<T>(memo: Map<string, T>, header: string, compute: (header: string) => T): T {
  const known = memo.get(header);
  if (known !== undefined) return known;
  const answer = compute(header);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(header, answer);
  return answer;
}

/** The header lower-cased, with `x-gzip` named `gzip`. */
export function canonicalAcceptEncoding(header: string): string {
  return remembered(canonicalForms, header, (value) => value.toLowerCase().replace(/(^|,)(\s*)x-gzip(?=\s*(?:;|,|$))/g, '$1$2gzip'));
}

/** Whether the client takes gzip: named with a non-zero q, or else `*` with a non-zero q. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return remembered(gzipAnswers, header, (value) => {
    const headers = { 'accept-encoding': canonicalAcceptEncoding(value) };
    return new Negotiator({ headers }).encodings(['gzip']).length > 0;
  });
}

/**
 * The stored form of a page to send: brotli, else gzip, else identity, as the client ranks them (the server's
 * order between codings of equal q). A client refusing all three gets identity, which every client can read
 * (RFC 9110 §12.5.3 lets a server send it rather than a 406).
 */
export function pageFormFor(header: string | undefined): PageForm {
  if (!header) return 'identity';
  return remembered(formAnswers, header, (value) => {
    const headers = { 'accept-encoding': canonicalAcceptEncoding(value) };
    const [best] = rankedEncodings(new Negotiator({ headers }), PAGE_CODINGS, PAGE_CODINGS);
    return PAGE_CODINGS.find((form) => form === best) ?? 'identity';
  });
}

const PAGE_CODINGS: readonly PageForm[] = ['br', 'gzip', 'identity'];

/**
 * negotiator's encodings() with its `preferred` option (negotiator 1.0; @types/negotiator does not declare it):
 * between codings the client gives the same q, the first of `preferred` wins (a browser lists gzip before br).
 */
type Ranking = (available: readonly string[], options: { preferred: readonly string[] }) => string[];

function rankedEncodings(negotiator: Negotiator, available: readonly string[], preferred: readonly string[]): string[] {
  return (negotiator.encodings as Ranking).call(negotiator, available, { preferred });
}

/** Puts the request's Accept-Encoding in its canonical form before anything reads it. */
export function canonicaliseAcceptEncoding(req: IncomingMessage): void {
  const header = req.headers['accept-encoding'];
  if (header) req.headers['accept-encoding'] = canonicalAcceptEncoding(header);
}

/** `next` with every request's Accept-Encoding in canonical form, so the hit path and the chain agree. */
export function withCanonicalAcceptEncoding(next: RequestListener): RequestListener {
  return (req, res) => {
    canonicaliseAcceptEncoding(req);
    next(req, res);
  };
}
