/**
 * A real HTTP server in front of the reference content API that passes every call through and rewrites the JSON
 * answers on the way back: a CMS sending what a broken or compromised one would (lone surrogates in its texts,
 * dates out of range, markup in its summaries), with the reference dataset's real shape around it. The answer is
 * re-serialised with JSON.stringify, so a lone surrogate reaches the portal as the `\ud800` escape a real JSON
 * encoder writes. Media and non-JSON answers pass unchanged.
 */
import http from 'node:http';
import type { ReferenceServer } from './portal';

/** Rewrites one value of an answer; `key` is the property name it sits under ('' at the top, the index in arrays). */
export type Rewrite = (key: string, value: unknown) => unknown;

export interface RewritingUpstream {
  url: string;
  /** The reference server as a portal's shared upstream, its URL this server's (for startTestPortal's `upstream`). */
  asUpstream: ReferenceServer;
  close(): Promise<void>;
}

/** Applies `rewrite` to every value, depth first (children before the object holding them). */
export function rewriteDeep(value: unknown, rewrite: Rewrite, key = ''): unknown {
  if (Array.isArray(value))
    return rewrite(
      key,
      value.map((item, index) => rewriteDeep(item, rewrite, String(index))),
    );
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).map(([name, item]) => [name, rewriteDeep(item, rewrite, name)]);
    return rewrite(key, Object.fromEntries(entries));
  }
  return rewrite(key, value);
}

export async function startRewritingUpstream(reference: ReferenceServer, rewrite: Rewrite): Promise<RewritingUpstream> {
  const target = new URL(reference.url);
  const server = http.createServer((req, res) => {
    const forward = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (part: Buffer) => parts.push(part));
        answer.on('end', () => {
          const body = Buffer.concat(parts);
          const isJson = /json/.test(answer.headers['content-type'] ?? '') && !(req.url ?? '').startsWith('/media/');
          const out = isJson ? Buffer.from(rewriteJson(body.toString('utf8'), rewrite)) : body;
          const headers = { ...answer.headers, 'content-length': String(out.length) };
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(out);
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    asUpstream: { ...reference, url },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function rewriteJson(text: string, rewrite: Rewrite): string {
  try {
    return JSON.stringify(rewriteDeep(JSON.parse(text), rewrite));
  } catch {
    return text;
  }
}
