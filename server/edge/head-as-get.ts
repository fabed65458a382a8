/**
 * HEAD answers what GET would, header for header (RFC 9110 §9.3.2), and a 304 carries the `Vary` its 200 would
 * (§15.4.5). The compression middleware leaves HEAD alone (no `Content-Encoding`, the identity `Content-Length`) and
 * decides `Vary` by the `Content-Type` a 304 no longer has: it is shown a HEAD as the GET it stands for, and a 304
 * with the type of its 200 for as long as it decides. The body of a HEAD is never sent (Node drops it), so
 * compressing it costs one empty stream.
 */
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import onHeaders from 'on-headers';

/**
 * Ends an answer made before Express (a refusal, a redirect) with `body`, or for a HEAD with the Content-Length
 * that body has and no body: Node would otherwise send a GET's length and a HEAD's none.
 */
export function endAsForGet(req: IncomingMessage, res: ServerResponse, body: string): void {
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** `compress` (the compression middleware) deciding for a HEAD as for a GET, and for a 304 as for its 200. */
export function compressionAsForGet(compress: RequestHandler): RequestHandler[] {
  return [withoutTypeOn304(), (req, res, next) => compress(req.method === 'HEAD' ? asGet(req) : req, res, next), withTypeOn304()];
}

/** The request as compression reads it (its method, its headers), the method GET. */
function asGet(req: Request): Request {
  return Object.create(req, { method: { value: 'GET', enumerable: true } }) as Request;
}

const TYPED_FOR_304 = Symbol('typed for a 304');

/**
 * Runs before compression decides (on-headers runs the last registered first): a 304 without a type gets the one
 * its 200 would have (by the path's extension, as express.static types files; a page otherwise).
 */
function withTypeOn304(): RequestHandler {
  return (req, res, next) => {
    onHeaders(res, () => {
      if (res.statusCode !== 304 || res.getHeader('Content-Type') !== undefined) return;
      res.type(path.extname(req.path) || 'html');
      (res as Response & { [TYPED_FOR_304]?: true })[TYPED_FOR_304] = true;
    });
    next();
  };
}

/**
 * Runs after compression decided: the type lent to a 304 goes again, and the coding compression chose for the body
 * a 304 never has (a 304 carries no representation metadata; Node sends no body with it).
 */
function withoutTypeOn304(): RequestHandler {
  return (_req: IncomingMessage, res: ServerResponse, next: () => void) => {
    onHeaders(res, () => {
      if (!(res as ServerResponse & { [TYPED_FOR_304]?: true })[TYPED_FOR_304]) return;
      res.removeHeader('Content-Type');
      res.removeHeader('Content-Encoding');
    });
    next();
  };
}
