#!/usr/bin/env node
// The ceiling in its own process: node:http sending a captured response (body and headers) with no work per
// request. Arguments: port, body file, headers JSON file. Prints "ready" once listening.
import http from 'node:http';
import { readFileSync } from 'node:fs';

const [port, bodyFile, headersFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = JSON.parse(readFileSync(headersFile, 'utf8'));
http
  .createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
