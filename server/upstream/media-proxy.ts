/**
 * Embedded mode only: the in-process reference API listens on loopback, so its images and videos are served to
 * readers through the portal's own origin under /media. Production media live on the CMS's own hosts.
 * node:http follows no redirect; a 3xx other than a 304 (an answer to the reader's own If-None-Match) is a 502,
 * its Location and body never relayed (docs/security.md, "The content API is not trusted").
 */
import http from 'node:http';
import type { RequestHandler } from 'express';

const FORWARDED_REQUEST_HEADERS = ['range', 'if-none-match', 'if-modified-since'] as const;
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'cache-control', 'etag', 'last-modified'];

export function mediaProxy(upstreamUrl: string): RequestHandler {
  const base = new URL(upstreamUrl);
  return (req, res) => {
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const upstream = http.get({ host: base.hostname, port: base.port, path: `/media${req.url}`, headers, timeout: 10_000 }, (answer) => {
      const status = answer.statusCode ?? 502;
      if (status >= 300 && status < 400 && status !== 304) {
        answer.resume();
        res.status(502).end();
        return;
      }
      res.status(status);
      for (const name of FORWARDED_RESPONSE_HEADERS) {
        const value = answer.headers[name];
        if (value !== undefined) res.setHeader(name, value);
      }
      answer.pipe(res);
    });
    upstream.on('timeout', () => upstream.destroy(new Error('media timeout')));
    upstream.on('error', () => {
      if (!res.headersSent) res.status(502).end();
      else res.destroy();
    });
    req.on('close', () => upstream.destroy());
  };
}
