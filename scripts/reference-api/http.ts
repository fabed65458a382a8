/**
 * Low-level request and response helpers on plain node:http, so failure injection (hangs, truncated bodies) is
 * under full control and no framework buffers or rewrites anything.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const JSON_TYPE = 'application/json; charset=utf-8';
const MAX_BODY_BYTES = 64 * 1024;

export type BodyFields = Record<string, unknown>;

export type Reply =
  | { kind: 'json'; status: number; body: unknown }
  | { kind: 'raw'; status: number; contentType: string; body: string | Buffer; headers?: Record<string, string> };

export function json(status: number, body: unknown): Reply {
  return { kind: 'json', status, body };
}

export class BadBodyError extends Error {}

function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BadBodyError('body too large'));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** JSON or application/x-www-form-urlencoded (a CMS accepts both); an empty body is an empty object. */
export async function readBody(req: IncomingMessage): Promise<BodyFields> {
  const raw = (await readRaw(req)).toString('utf8');
  if (raw.trim() === '') return {};
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed !== null && typeof parsed === 'object') return parsed as BodyFields;
  } catch {
    // fall through: not JSON
  }
  // Untyped bodies that look like a form are accepted too, like PHP's $_POST does.
  if (!type.includes('json') && /^[^{[]*=/.test(raw)) return Object.fromEntries(new URLSearchParams(raw));
  throw new BadBodyError('unreadable body');
}

/** A JSON body that may be an array (control rules) as well as an object. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const raw = (await readRaw(req)).toString('utf8');
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new BadBodyError('invalid JSON');
  }
}

export function serialise(reply: Reply): { status: number; contentType: string; body: string | Buffer; headers: Record<string, string> } {
  if (reply.kind === 'raw') return { status: reply.status, contentType: reply.contentType, body: reply.body, headers: reply.headers ?? {} };
  return { status: reply.status, contentType: JSON_TYPE, body: JSON.stringify(reply.body), headers: { 'Cache-Control': 'no-store' } };
}

export function send(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  if (res.writableEnded || res.destroyed) return;
  const { status, contentType, body, headers } = serialise(reply);
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** Sends a prefix of the real body with a 200 and a JSON type: what a proxy cutting the connection short leaves. */
export function sendTruncated(res: ServerResponse, reply: Reply): void {
  if (res.writableEnded || res.destroyed) return;
  const text = String(serialise(reply).body);
  const cut = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  res.statusCode = 200;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(cut));
  res.end(cut);
}

/** Resolves true after `ms`, or false as soon as the client goes away (so no timer outlives its socket). */
export function delay(ms: number, res: ServerResponse): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(true);
    }, ms);
    res.once('close', onClose);
  });
}
