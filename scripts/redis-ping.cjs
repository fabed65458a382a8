// Whether a Redis answers PING at host:port within the timeout: a raw RESP exchange, so it needs no client
// library and works before `npm ci` has run. One probe for test-env.mjs (is Redis up, or must it be started),
// jest's global setup (skip Redis suites with a reason) and test/support/redis-server.ts (wait for a server).
// CommonJS, so the ESM scripts, the CommonJS setup and the TypeScript tests can all load it.
const net = require('node:net');

/** @param {{ host?: string, port?: number, timeoutMs?: number }} [options] @returns {Promise<boolean>} */
function redisAnswers({ host = '127.0.0.1', port = 6379, timeoutMs = 500 } = {}) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => done(chunk.toString().startsWith('+PONG')));
  });
}

module.exports = { redisAnswers };
