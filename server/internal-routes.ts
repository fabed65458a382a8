/**
 * /_internal/l1?key=K[&key=K…]: whether this instance's in-process tier (L1) holds those cache keys, each copy's
 * age and freshness, for `portal-cache inspect` (docs/operations.md "Cache CLI"). Looking does not touch the
 * LRU's order. Answered only to a request made on this machine (loopback, not relayed by a proxy: a proxy on
 * the same machine sends X-Forwarded-For) or carrying INTERNAL_TOKEN in X-Portal-Internal-Token; anyone else
 * gets 403. deploy/nginx.conf also refuses /_internal from the public.
 */
import type { IncomingMessage } from 'node:http';
import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { ageSeconds, freshnessOf, type CacheEntry } from './cache/entry';
import { carriesToken, INTERNAL_TOKEN_HEADER } from './cache/instances';
import { PurgeInputError } from './cache/invalidation';
import { MAX_PURGE_BODY_BYTES, orderOf, PurgeRequestError, SIGNATURE_HEADER, SIGNATURE_TOLERANCE_S, signatureOf, verifySignature } from './cache/purge-request';
import { wirePurge, type PurgeAnnouncement } from './cache/coherence';
import type { PeerAck as PeerPurgeAnswer } from './cache/peer-purge';
import type { PurgeRecord } from './cache/purge-record';
import type { Purges } from './cache/purges';
import type { Logger } from './platform/logger';
import type { Metrics } from './platform/metrics';
import { readDeadline } from './edge/read-deadline';

/** What /_internal/l1 reads of the store: null when this instance has no L1 (L1_CACHE_MAX_MB=0 with Redis). */
export interface L1View {
  peek(key: string): CacheEntry | null;
  /** false while L1 is bypassed (docs/cache.md "Redis down"): its copies are then not served. */
  trusted(): boolean;
}

export interface InternalDeps {
  l1: L1View | null;
  /** INTERNAL_TOKEN; unset: only loopback requests are answered. */
  token: string | undefined;
  instance: { id: string; build: string };
  /** The publish hook (docs/publish-hook.md): off (404) without PURGE_SECRET. */
  purge: { secret: string | undefined; purges: Purges; logger: Logger; metrics?: Pick<Metrics, 'purgeFinished' | 'purgeNotDone'> | null };
}

const l1Copy = z.object({
  key: z.string(),
  present: z.boolean(),
  ageSeconds: z.number().optional(),
  freshness: z.enum(['fresh', 'stale', 'expired', 'gone']).optional(),
  bytes: z.number().optional(),
});

/** The answer of /_internal/l1; the CLI checks what it receives against this. */
export const l1Answer = z.object({
  instance: z.object({ id: z.string(), build: z.string() }),
  /** on: L1 answers; bypassed: it holds copies but does not serve them now; off: this instance has none. */
  l1: z.enum(['on', 'bypassed', 'off']),
  entries: z.array(l1Copy),
});

export type L1Copy = z.infer<typeof l1Copy>;
export type L1Answer = z.infer<typeof l1Answer>;

const MAX_KEYS = 100;
const MAX_KEY_LENGTH = 2048;
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

function isLocal(req: IncomingMessage): boolean {
  const relayed = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
  return !relayed && LOOPBACK.has(req.socket.remoteAddress ?? '');
}

function copyOf(l1: L1View, key: string, now: number): L1Copy {
  const entry = l1.peek(key);
  if (!entry) return { key, present: false };
  const bytes = typeof entry.value === 'string' ? Buffer.byteLength(entry.value) : entry.value.length;
  return { key, present: true, ageSeconds: ageSeconds(entry, now), freshness: freshnessOf(entry, now), bytes };
}

export function internalRoutes(deps: InternalDeps): Router {
  const router = Router();
  // The CMS calls the hook from its own machine: a valid signature is its credential, not the loopback rule below.
  router.post(
    '/_internal/purge',
    countRefusals(deps.purge.metrics ?? null),
    hookBodyDeadline(HOOK_BODY_DEADLINE_MS),
    express.raw({ type: () => true, limit: MAX_PURGE_BODY_BYTES }),
    purgeHook(deps.purge),
    hookBodyError,
  );
  router.use('/_internal', (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    const header = req.headers[INTERNAL_TOKEN_HEADER];
    if (isLocal(req) || carriesToken(typeof header === 'string' ? header : undefined, deps.token)) return next();
    res.status(403).json({ error: `internal endpoint: only from this machine, or with the ${INTERNAL_TOKEN_HEADER} header` });
  });
  router.get('/_internal/l1', (req, res) => {
    const raw = req.query.key;
    const keys = (Array.isArray(raw) ? raw : [raw]).filter((key): key is string => typeof key === 'string' && key !== '');
    if (keys.length === 0 || keys.length > MAX_KEYS || keys.some((key) => key.length > MAX_KEY_LENGTH)) {
      res.status(400).json({ error: `key: 1 to ${MAX_KEYS} cache keys of at most ${MAX_KEY_LENGTH} characters` });
      return;
    }
    const { l1 } = deps;
    const now = Date.now();
    const answer: L1Answer = {
      instance: deps.instance,
      l1: l1 === null ? 'off' : l1.trusted() ? 'on' : 'bypassed',
      entries: keys.map((key) => (l1 === null ? { key, present: false } : copyOf(l1, key, now))),
    };
    res.json(answer);
  });
  router.post(
    '/_internal/peer-purge',
    hookBodyDeadline(HOOK_BODY_DEADLINE_MS),
    express.raw({ type: () => true, limit: MAX_PEER_PURGE_BYTES }),
    peerPurge(deps),
    hookBodyError,
  );
  return router;
}

/** A purge announcement of up to 10,000 selectors (coherence.ts wirePurge), as JSON. */
const MAX_PEER_PURGE_BYTES = 8 * 1024 * 1024;

/**
 * A purge sent straight by another instance that cannot reach Redis (cache/peer-purge.ts): applied to this
 * instance's L1 and clock, answered with this instance's id and the copies it dropped.
 */
function peerPurge(deps: InternalDeps) {
  return async (req: Request, res: Response): Promise<void> => {
    if (res.headersSent) return;
    const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    let parsed: ReturnType<typeof wirePurge.safeParse>;
    try {
      parsed = wirePurge.safeParse(JSON.parse(raw));
    } catch {
      res.status(400).json({ error: 'body: not JSON' });
      return;
    }
    if (!parsed.success) {
      res.status(400).json({ error: `body: not a purge announcement (${parsed.error.issues[0]?.message ?? 'invalid'})` });
      return;
    }
    const announcement: PurgeAnnouncement = parsed.data;
    const entries = await deps.purge.purges.acknowledgeDirect(announcement);
    const answer: PeerPurgeAnswer = { id: deps.instance.id, entries };
    res.json(answer);
  };
}

/**
 * How long the hook waits for a whole body. A CMS sends at most 256 KiB in one go; a client that announces more
 * than the limit or trickles its body (slowloris) must not hold the connection: body-parser reads an over-limit or
 * failed body to its end before answering. Every route's body has the same deadline by default
 * (REQUEST_READ_TIMEOUT_MS, middleware/read-deadline.ts); this one keeps the hook's at 10 s at most, whatever that is.
 */
export const HOOK_BODY_DEADLINE_MS = 10_000;

/**
 * The hook's body guards: a Content-Length over the limit is refused at once (413: body-parser would read an
 * over-limit body to its end before answering), and a body not all arrived within `deadlineMs` gets the 408 of
 * every route's read deadline (middleware/read-deadline.ts), here at the hook's shorter bound.
 */
export function hookBodyDeadline(deadlineMs: number): RequestHandler[] {
  const refuseOversize = (req: Request, res: Response, next: NextFunction): void => {
    const announced = Number(req.headers['content-length']);
    if (!Number.isFinite(announced) || announced <= MAX_PURGE_BODY_BYTES) {
      next();
      return;
    }
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Connection', 'close');
    res.status(413).json({ error: `body: larger than ${MAX_PURGE_BODY_BYTES} bytes` });
    res.once('finish', () => req.socket.destroy());
  };
  return [refuseOversize, readDeadline(deadlineMs)];
}

/**
 * Counts the hook's calls that purged nothing, by the status they got: 4xx refused (signature, body, tag, the hook
 * off), 5xx failed (the store did not answer). Whichever step answered (the body deadline, the parser, the hook).
 */
function countRefusals(metrics: Pick<Metrics, 'purgeNotDone'> | null) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    if (metrics) {
      res.once('finish', () => {
        if (res.statusCode >= 500) metrics.purgeNotDone('hook', 'failed');
        else if (res.statusCode >= 400) metrics.purgeNotDone('hook', 'refused');
      });
    }
    next();
  };
}

/** The hook's log line: a warning naming every instance and edge that did not acknowledge, else info. */
function logPurge(logger: Logger, record: PurgeRecord): void {
  const what = `publish hook: ${record.soft ? 'soft' : 'hard'} purge of ${[...record.tags, ...record.urls].join(' ')} (${record.entries} entries)`;
  const edgesMissing = record.edges.some((edge) => !edge.ok);
  if (record.instances.missing.length === 0 && !edgesMissing && !record.unreached) {
    logger.info({ purge: record }, what);
    return;
  }
  const missing = [
    ...(record.unreached ? ['held: Redis unreachable (this L1 and the edges purged; replayed once Redis answers)'] : []),
    ...(record.instances.missing.length > 0 ? [`instances not acknowledged: ${record.instances.missing.join(', ')}`] : []),
    ...record.edges.flatMap((edge) => (edge.ok ? [] : [`edge ${edge.edge} not acknowledged (${edge.reason ?? 'no answer'})`])),
  ];
  logger.warn({ purge: record }, `${what}: partial; ${missing.join('; ')}`);
}

/**
 * What the hook answers: 200 once every instance and edge has the purge; 202 when some did not say so (named), or
 * when Redis could not be reached (`unreached`: this instance and the edges have it, Redis and the others will).
 */
function hookAnswer(record: PurgeRecord): { status: 200 | 202; body: Record<string, unknown> } {
  const unreached = record.unreached ?? [];
  const complete = unreached.length === 0 && record.instances.missing.length === 0 && record.edges.every((edge) => edge.ok);
  return {
    status: complete ? 200 : 202,
    body: {
      id: record.id,
      complete,
      soft: record.soft,
      entries: record.entries,
      instances: record.instances,
      edges: record.edges,
      ...(unreached.length > 0 ? { unreached, replay: 'in order, as soon as Redis answers' } : {}),
      ms: record.ms,
    },
  };
}

function purgeHook(hook: InternalDeps['purge']) {
  return async (req: Request, res: Response): Promise<void> => {
    // Refused while the body was read (hookBodyDeadline): nothing more to say, nothing to purge.
    if (res.headersSent) return;
    res.setHeader('Cache-Control', 'no-store');
    if (!hook.secret) {
      res.status(404).json({ error: 'the publish hook is off: set PURGE_SECRET to turn it on (docs/publish-hook.md)' });
      return;
    }
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    try {
      const header = req.headers[SIGNATURE_HEADER];
      const signature = signatureOf(typeof header === 'string' ? header : undefined);
      const matching = verifySignature(hook.secret, signature, raw);
      const order = orderOf(raw);
      await hook.purges.selectorsOf(order);
      const keepSeconds = 2 * SIGNATURE_TOLERANCE_S;
      if (!(await hook.purges.firstUse(matching, keepSeconds))) {
        throw new PurgeRequestError(409, `${SIGNATURE_HEADER}: this signature was used already (sign each call anew, with its own t)`);
      }
      const used = { value: matching, until: Date.now() + keepSeconds * 1000 };
      const record = await hook.purges.purge({ ...order, signature: used }, `cms (${req.ip ?? 'unknown'})`, 'hook');
      hook.metrics?.purgeFinished('hook', record);
      logPurge(hook.logger, record);
      const answer = hookAnswer(record);
      res.status(answer.status).json(answer.body);
    } catch (error) {
      if (error instanceof PurgeRequestError) {
        res.status(error.status).json({ error: error.message });
        return;
      }
      if (error instanceof PurgeInputError) {
        res.status(400).json({ error: error.message });
        return;
      }
      hook.logger.error({ err: error }, 'publish hook: purge failed');
      res.setHeader('Retry-After', '5');
      res.status(503).json({ error: 'the purge could not be carried out (the cache store did not answer); send it again' });
    }
  };
}

/** The body parser's refusals (too large, unreadable) as the hook's JSON errors, never the 500 page. */
function hookBodyError(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  // Already answered (408/413 by hookBodyDeadline): the parser's own error about the cut body is not news.
  if (res.headersSent) return;
  res.setHeader('Cache-Control', 'no-store');
  const status = typeof error === 'object' && error !== null && 'status' in error ? Number((error as { status: unknown }).status) : 0;
  if (status === 413) {
    res.status(413).json({ error: `body: larger than ${MAX_PURGE_BODY_BYTES} bytes` });
    return;
  }
  if (status >= 400 && status < 500) {
    res.status(400).json({ error: 'body: could not be read' });
    return;
  }
  next(error);
}
