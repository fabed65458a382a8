/** Request helpers shared by the reference API suites: envelope GETs and raw (binary or text) GETs. */
import { get as httpGet } from 'node:http';
import request from 'supertest';
import type { Envelope } from '../../../shared/types/envelope';
import type { ReferenceApi } from '../../../scripts/reference-api/app';

export const PUBLIC = 'http://media.test:8080';
export const MEDIA_URL = /^http:\/\/media\.test:8080\/media\/img\/[a-z][a-z0-9]*-\d+x\d+\.(?:jpg|svg)$/;
export const HLS_URL = /^http:\/\/media\.test:8080\/media\/hls\/[a-z][a-z0-9]*\/index\.m3u8$/;
export const BAD_PARAMS = { code: 40000, msg: '参数错误', data: null };

export async function getEnvelope<T>(api: ReferenceApi, path: string): Promise<Envelope<T>> {
  const response = await request(api.handler).get(path);
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.body as Envelope<T>;
}

type ParseDone = (error: Error | null, body: unknown) => void;

/** A supertest parser keeping the body as bytes (supertest hands parsers the raw stream, typed as a Response). */
export function bufferBody(res: request.Response, done: ParseDone): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}

/** A supertest parser keeping the body as text, whatever its type says. */
export function textBody(res: request.Response, done: ParseDone): void {
  bufferBody(res, (error, body) => done(error, (body as Buffer).toString('utf8')));
}

export interface RawResponse {
  status: number;
  contentType: string;
  body: Buffer;
  cors: string;
}

export async function getRaw(api: ReferenceApi, path: string): Promise<RawResponse> {
  const response = await request(api.handler).get(path).buffer(true).parse(bufferBody);
  return {
    status: response.status,
    contentType: String(response.headers['content-type'] ?? ''),
    body: response.body as Buffer,
    cors: String(response.headers['access-control-allow-origin'] ?? ''),
  };
}

/** A URL from a response, relative to the API again (media URLs carry the public prefix). */
export function localPath(url: string): string {
  return url.startsWith(PUBLIC) ? url.slice(PUBLIC.length) : url;
}

export interface Fetched {
  status: number;
  type: string | null;
  bytes: Buffer;
}

/** A GET over a real socket of its own (no pooling), for suites that need a listening reference API. */
export function getOverSocket(url: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? null, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}
