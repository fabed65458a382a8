// When jest runs without `npm test` (scripts/test.mjs), find out here what this machine has, so suites can
// skip with a reason instead of failing on a missing Redis or browser. Under `npm test` the answers are set.
const { existsSync } = require('node:fs');
const net = require('node:net');

function redisAnswers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) || 6379 });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => done(chunk.toString().startsWith('+PONG')));
  });
}

module.exports = async () => {
  if (!process.env.PORTAL_TEST_REDIS_URL) process.env.PORTAL_TEST_REDIS_URL = 'redis://127.0.0.1:6379';
  if (!process.env.PORTAL_TEST_NO_REDIS && !(await redisAnswers(process.env.PORTAL_TEST_REDIS_URL))) {
    process.env.PORTAL_TEST_NO_REDIS = `no Redis answers at ${process.env.PORTAL_TEST_REDIS_URL}: apt-get install -y redis-server (npm test starts it)`;
  }
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!process.env.PORTAL_TEST_CHROMIUM && !process.env.PORTAL_TEST_NO_BROWSER) {
    if (existsSync(chromium)) process.env.PORTAL_TEST_CHROMIUM = chromium;
    else process.env.PORTAL_TEST_NO_BROWSER = `no Chromium at ${chromium}: apt-get install -y chromium (npm test installs it)`;
  }
};
