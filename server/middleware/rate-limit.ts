/**
 * Per-client rate limits (express-rate-limit) on what scripts and bots hammer: the data endpoints of client
 * navigations, the same-origin API proxy and the sign-in flow (one limiter each). The client is `req.ip`, which honours X-Forwarded-For only from the proxies named in
 * TRUST_PROXY, so a spoofed header cannot buy a fresh allowance.
 */
import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';

export function dataRateLimit(perMinute: number): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (_req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.status(429).json({ error: '请求过于频繁，请稍后再试' });
    },
  });
}
