#!/usr/bin/env node
// The ceiling in its own process: node:http sending a captured response (body and headers) with no work per
// request. Arguments: port, body file, headers JSON file, and optionally a Redis URL and key: then the body is
// stored under that key and read back with one ioredis GET for every response (the least a hit served from
// Redis does: one round trip for the bytes it sends). Prints "ready" once listening.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import Redis from 'ioredis';

const [port, bodyFile, headersFile, redisUrl, key] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = JSON.parse(readFileSync(headersFile, 'utf8'));

function fromMemory(_req, res) {
  res.writeHead(200, headers);
  res.end(body);
}

function fromRedis(redis) {
  return (_req, res) => {
    redis.getBuffer(key).then(
      (stored) => {
        res.writeHead(200, headers);
        res.end(stored);
      },
      () => {
        res.writeHead(503);
        res.end();
      },
    );
  };
}

let handler = fromMemory;
if (redisUrl) {
  const redis = new Redis(redisUrl);
  await redis.set(key, body);
  handler = fromRedis(redis);
}
// An exit of its own on SIGTERM, so a run under --cpu-prof (profile-hits.ts) writes its profile.
process.once('SIGTERM', () => process.exit(0));
http.createServer(handler).listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
