/**
 * Whether a request's Accept-Encoding allows gzip (RFC 9110 §12.5.3): `gzip` or `x-gzip` with a non-zero q, or
 * else `*` with a non-zero q. Browsers send a handful of distinct headers, so answers are remembered for them.
 */
const MEMO_LIMIT = 256;
const memo = new Map<string, boolean>();

export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  const known = memo.get(header);
  if (known !== undefined) return known;
  const answer = parse(header);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(header, answer);
  return answer;
}

function parse(header: string): boolean {
  let gzip: boolean | null = null;
  let wildcard: boolean | null = null;
  for (const item of header.split(',')) {
    const [coding = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    const accepted = qualityOf(params) > 0;
    if (coding === 'gzip' || coding === 'x-gzip') gzip = (gzip ?? false) || accepted;
    else if (coding === '*') wildcard = (wildcard ?? false) || accepted;
  }
  return gzip ?? wildcard ?? false;
}

function qualityOf(params: readonly string[]): number {
  for (const param of params) {
    const match = /^q\s*=\s*(.*)$/.exec(param);
    // A q that is not a number accepts nothing: better identity than an encoding the client may not read.
    if (match) return /^[0-9.]+$/.test(match[1]!) ? Number(match[1]) : 0;
  }
  return 1;
}
