/** A raw HTTP GET that records when each chunk of the body arrived, to see streaming as a reader's browser does. */
import http from 'node:http';
import zlib, { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface TimedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  chunks: Array<{ at: number; text: string }>;
  body: string;
  /** Milliseconds from the request to the response head. */
  headAt: number;
}

export function timedGet(url: string, headers: Record<string, string> = {}): Promise<TimedResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { 'accept-encoding': 'identity', ...headers } }, (res) => {
      const headAt = performance.now() - started;
      const chunks: TimedResponse['chunks'] = [];
      // A gzip body is inflated as it arrives, so chunk times show when the reader could have used the bytes.
      const body = res.headers['content-encoding'] === 'gzip' ? res.pipe(zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH })) : res;
      body.setEncoding('utf8');
      body.on('data', (text: string) => chunks.push({ at: performance.now() - started, text }));
      body.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks, body: chunks.map((c) => c.text).join(''), headAt }));
      body.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** When the first chunk containing `needle` arrived (ms), or -1. */
export function arrivalOf(response: TimedResponse, needle: string): number {
  let text = '';
  for (const chunk of response.chunks) {
    text += chunk.text;
    if (text.includes(needle)) return chunk.at;
  }
  return -1;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A request whose target is sent exactly as written: URL helpers (fetch, supertest, http.get with a URL) resolve
 * dot segments and re-encode before sending, which would hide the spellings under test.
 */
export function rawRequest(base: string, method: string, target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const origin = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: origin.hostname, port: origin.port, method, path: target, headers: { 'accept-encoding': 'identity', ...headers } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent (not decompressed). */
  body: Buffer;
}

/** One request on its own connection, the body as sent (not decompressed). */
export function rawGet(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      })
      .on('error', reject)
      .end();
  });
}

/** The nonce of the answer's Content-Security-Policy. */
export function cspNonce(answer: RawAnswer): string {
  const match = /'nonce-([^']+)'/.exec(String(answer.headers['content-security-policy']));
  if (!match) throw new Error('no nonce in the CSP header');
  return match[1]!;
}

/** The HTML of an answer, decompressed as its Content-Encoding says. */
export function htmlOf(answer: RawAnswer): string {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(answer.body).toString('utf8');
  if (encoding === 'br') return brotliDecompressSync(answer.body).toString('utf8');
  return answer.body.toString('utf8');
}

/** Every nonce attribute in the page. */
export function bodyNonces(html: string): string[] {
  return [...html.matchAll(/nonce="([^"]+)"/g)].map((match) => match[1]!);
}

/**
 * The page without its nonce attributes: a nonce is 16 random bytes in base64, so a search of the markup for a
 * word ('NaN', 'undefined') finds it in one page of a few thousand by chance.
 */
export function withoutNonces(html: string): string {
  return html.replace(/\bnonce="[^"]*"/g, 'nonce=""');
}
