#!/usr/bin/env node
// The benchmark's load generator in its own process, so the server measured shares no CPU time with its client.
// Argument: a JSON spec { url, connections, seconds, headers, paths?, cycle?, perSecond? }. With `paths`, each is
// requested once, in turn (page misses: every path a new page); with `cycle` as well, they are requested in turn
// for `seconds`. With `perSecond`, the answers of each second of the run are counted too. Prints one JSON line:
// requests, seconds, p99, non2xx, errors (and perSecond: answers in each whole second since startedAt, Date.now(),
// or since `countFrom` when given: loads run side by side then count the same seconds; answers before it are not counted).
import autocannon from 'autocannon';

const spec = JSON.parse(process.argv[2]);
const options = { url: spec.url, connections: spec.connections, headers: spec.headers ?? {} };
if (spec.paths) {
  let next = 0;
  Object.assign(options, {
    ...(spec.cycle ? { duration: spec.seconds } : { amount: spec.paths.length }),
    requests: [{ setupRequest: (request) => ({ ...request, path: spec.paths[next++ % spec.paths.length] }) }],
  });
} else {
  options.duration = spec.seconds;
}
const started = Date.now();
const origin = spec.countFrom ?? started;
const perSecond = [];
const instance = autocannon(options);
// A line when the load starts: a process may take seconds to start on a busy machine, and a caller timing an event
// into the load (bench/outage-expiry.ts) counts from here.
if (spec.perSecond) process.stdout.write(`${JSON.stringify({ startedAt: started })}\n`);
if (spec.perSecond) {
  instance.on('response', () => {
    const second = Math.floor((Date.now() - origin) / 1000);
    if (second < 0) return;
    while (perSecond.length <= second) perSecond.push(0);
    perSecond[second] += 1;
  });
}
const result = await instance;
process.stdout.write(
  `${JSON.stringify({
    requests: result.requests.total,
    seconds: result.duration,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    ...(spec.perSecond ? { perSecond, startedAt: started, countFrom: origin } : {}),
  })}\n`,
);
