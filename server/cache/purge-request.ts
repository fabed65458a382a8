/**
 * The publish hook's contract with the CMS (docs/publish-hook.md): `POST /_internal/purge` with a JSON body
 * `{"tags": […], "urls": […], "soft": true}` signed as `X-Portal-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256
 * of "<t>.<raw body>" with PURGE_SECRET>`, the scheme Stripe's webhooks use. This module only reads and checks a
 * request; carrying the purge out is purges.ts's.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { MAX_TAG_LENGTH, purgeTagProblem } from './tags';

export const SIGNATURE_HEADER = 'x-portal-signature';

/** A signature older or newer than this (seconds) is refused: a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_S = 300;

/** Bounds of one hook call: a CMS publishing one article sends a handful of tags and URLs. */
export const MAX_PURGE_TAGS = 1000;
export const MAX_PURGE_URLS = 1000;
export const MAX_PURGE_BODY_BYTES = 256 * 1024;
const MAX_URL_LENGTH = 2048;

const purgeBody = z
  .object({
    // Of a family the contract lists (tags.ts), or the whole call is refused: nothing of it is purged.
    tags: z
      .array(
        z
          .string()
          .max(MAX_TAG_LENGTH)
          .superRefine((tag, ctx) => {
            const problem = purgeTagProblem(tag);
            if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
          }),
      )
      .max(MAX_PURGE_TAGS)
      .optional(),
    urls: z.array(z.string().max(MAX_URL_LENGTH)).max(MAX_PURGE_URLS).optional(),
    /** Default true: an update's pages stay served (stale) while one re-render runs; false (a takedown): gone at once. */
    soft: z.boolean().optional(),
    /**
     * The CMS's own id of the event (optional): written to the purge history, and it makes two identical purges
     * signed in the same second two signatures (otherwise the second is refused as a replay).
     */
    event: z.string().min(1).max(200).optional(),
  })
  .strict()
  .refine((body) => (body.tags?.length ?? 0) + (body.urls?.length ?? 0) > 0, { message: 'name at least one tag or url' });

export interface PurgeOrder {
  event?: string;
  tags: string[];
  /** Page URLs as readers ask for them: `https://www.qnnews.cn/about` (the host picks the site). */
  urls: string[];
  soft: boolean;
}

export class PurgeRequestError extends Error {
  constructor(
    readonly status: 400 | 401 | 409 | 413,
    message: string,
  ) {
    super(message);
    this.name = 'PurgeRequestError';
  }
}

/** The body as an order, or a 400 naming the first problem (`tags.2: is not a tag`). */
export function orderOf(rawBody: Buffer): PurgeOrder {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new PurgeRequestError(400, 'body: not JSON');
  }
  // JSON.parse keeps the last of two equal keys where another reader keeps the first: `"soft":false,"soft":true`
  // would be a takedown to the CMS's own log and an update here. A signed body says one thing or is refused.
  const repeated = repeatedKeyOf(rawBody.toString('utf8'));
  if (repeated !== null) throw new PurgeRequestError(400, `body: key ${JSON.stringify(repeated)} appears twice in one object`);
  const checked = purgeBody.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join('.') : 'body';
    throw new PurgeRequestError(400, `${where}: ${issue.message}`);
  }
  const { event } = checked.data;
  return { tags: unique(checked.data.tags ?? []), urls: unique(checked.data.urls ?? []), soft: checked.data.soft ?? true, ...(event ? { event } : {}) };
}

/**
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>…]` as it reaches the portal. Several `v1` are Stripe's rule for a secret
 * being rotated (the CMS signs with the old and the new one): any one matching is enough.
 */
export interface Signature {
  timestamp: number;
  /** Lower-case hex: hex is case-insensitive, and a replay spelt in capitals is the same signature. */
  v1: readonly string[];
}

/** More `v1` than a rotation needs is not a signature header. */
const MAX_V1 = 4;
const MALFORMED = `${SIGNATURE_HEADER}: expected t=<unix seconds>,v1=<64 hex digits>`;

export function signatureOf(header: string | undefined): Signature {
  if (header === undefined) throw new PurgeRequestError(401, `${SIGNATURE_HEADER}: missing`);
  const parts = header.split(',').map((part) => {
    const at = part.indexOf('=');
    return { name: part.slice(0, at).trim(), value: part.slice(at + 1).trim() };
  });
  const t = parts.filter((part) => part.name === 't');
  const v1 = parts.filter((part) => part.name === 'v1').map((part) => part.value.toLowerCase());
  if (t.length !== 1 || !/^\d{1,12}$/.test(t[0]!.value)) throw new PurgeRequestError(401, MALFORMED);
  if (v1.length === 0 || v1.length > MAX_V1 || !v1.every((hex) => /^[0-9a-f]{64}$/.test(hex))) throw new PurgeRequestError(401, MALFORMED);
  return { timestamp: Number(t[0]!.value), v1 };
}

/** The v1 signature of a body at a time: what the CMS computes (docs/publish-hook.md has it in shell). */
export function sign(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/**
 * Checks the signature against the body and the clock; throws a 401 saying which check failed. Resolves the
 * `v1` that matched, the one a replay is recognised by.
 */
export function verifySignature(secret: string, signature: Signature, rawBody: Buffer, nowMs: number = Date.now()): string {
  const expected = Buffer.from(sign(secret, signature.timestamp, rawBody), 'hex');
  const matching = signature.v1.find((hex) => timingSafeEqual(Buffer.from(hex, 'hex'), expected));
  if (matching === undefined) {
    throw new PurgeRequestError(401, `${SIGNATURE_HEADER}: signature does not match the body (HMAC-SHA256 of "<t>.<body>" with PURGE_SECRET)`);
  }
  const skew = Math.abs(nowMs / 1000 - signature.timestamp);
  if (skew > SIGNATURE_TOLERANCE_S) {
    throw new PurgeRequestError(
      401,
      `${SIGNATURE_HEADER}: timestamp ${signature.timestamp} is ${Math.round(skew)} s from the portal's clock (at most ${SIGNATURE_TOLERANCE_S})`,
    );
  }
  return matching;
}

/**
 * The first key given twice in one object of a JSON text that JSON.parse accepted, or null. A scan of the text:
 * strings are skipped whole (escapes included), and only a string where an object expects a key is a key.
 */
export function repeatedKeyOf(json: string): string | null {
  const objects: Array<Set<string> | null> = [];
  let expectKey = false;
  for (let at = 0; at < json.length; at += 1) {
    const char = json[at];
    if (char === '"') {
      let end = at + 1;
      while (json[end] !== '"') end += json[end] === '\\' ? 2 : 1;
      const keys = objects[objects.length - 1];
      if (keys && expectKey) {
        const key = JSON.parse(json.slice(at, end + 1)) as string;
        if (keys.has(key)) return key;
        keys.add(key);
        expectKey = false;
      }
      at = end;
    } else if (char === '{') {
      objects.push(new Set());
      expectKey = true;
    } else if (char === '[') {
      objects.push(null);
      expectKey = false;
    } else if (char === '}' || char === ']') {
      objects.pop();
      expectKey = false;
    } else if (char === ',') {
      expectKey = objects[objects.length - 1] instanceof Set;
    }
  }
  return null;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
