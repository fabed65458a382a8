/**
 * Per-client rate limits (express-rate-limit) on what scripts and bots hammer: the data endpoints of client
 * navigations, the same-origin API proxy and the sign-in flow (one limiter each). The client is `req.ip`, which
 * honours X-Forwarded-For only from the proxies named in TRUST_PROXY, so a spoofed header cannot buy a fresh
 * allowance.
 */
import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Logger } from '../platform/logger';

/** What the library reports of its own configuration checks: a JSON line like every other, never a bare stack. */
function libraryLogger(logger: Logger): { warn: (error: unknown) => void; error: (error: unknown) => void } {
  const line = (error: unknown): [Record<string, unknown>, string] => {
    const code = error instanceof Error && 'code' in error ? String(error.code) : undefined;
    return [{ code, limiter: 'express-rate-limit' }, `rate limit: ${error instanceof Error ? error.message : String(error)}`];
  };
  return { warn: (error) => logger.warn(...line(error)), error: (error) => logger.error(...line(error)) };
}

export function dataRateLimit(perMinute: number, logger: Logger): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    // A forwarding header from a peer TRUST_PROXY does not name is any reader's to send: the portal logs it once
    // itself, naming the peer and the setting (forwarded-check.ts), so the library's own check would only repeat it.
    validate: { xForwardedForHeader: false, forwardedHeader: false },
    logger: libraryLogger(logger),
    handler: (_req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.status(429).json({ error: '请求过于频繁，请稍后再试' });
    },
  });
}
