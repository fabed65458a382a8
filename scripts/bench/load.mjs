#!/usr/bin/env node
// The benchmark's load generator in its own process, so the server measured shares no CPU time with its client.
// Argument: a JSON spec { url, connections, seconds, headers, paths? }. With `paths`, each is requested once, in
// turn (page misses: every path a new page). Prints one JSON line: requests, seconds, p99, non2xx, errors.
import autocannon from 'autocannon';

const spec = JSON.parse(process.argv[2]);
const options = { url: spec.url, connections: spec.connections, headers: spec.headers ?? {} };
if (spec.paths) {
  let next = 0;
  Object.assign(options, {
    amount: spec.paths.length,
    requests: [{ setupRequest: (request) => ({ ...request, path: spec.paths[next++ % spec.paths.length] }) }],
  });
} else {
  options.duration = spec.seconds;
}
const result = await autocannon(options);
process.stdout.write(
  `${JSON.stringify({ requests: result.requests.total, seconds: result.duration, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors })}\n`,
);
