// When jest runs without `npm test` (scripts/test.mjs), find out here what this machine has, so suites can
// skip with a reason instead of failing on a missing Redis or browser. Under `npm test` the answers are set.
const { existsSync } = require('node:fs');
const { redisAnswers } = require('../../scripts/redis-ping.cjs');

function redisAnswersAt(url) {
  const { hostname, port } = new URL(url);
  return redisAnswers({ host: hostname, port: Number(port) || 6379 });
}

module.exports = async () => {
  if (!process.env.PORTAL_TEST_REDIS_URL) process.env.PORTAL_TEST_REDIS_URL = 'redis://127.0.0.1:6379';
  if (!process.env.PORTAL_TEST_NO_REDIS && !(await redisAnswersAt(process.env.PORTAL_TEST_REDIS_URL))) {
    process.env.PORTAL_TEST_NO_REDIS = `no Redis answers at ${process.env.PORTAL_TEST_REDIS_URL}: apt-get install -y redis-server (npm test starts it)`;
  }
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!process.env.PORTAL_TEST_CHROMIUM && !process.env.PORTAL_TEST_NO_BROWSER) {
    if (existsSync(chromium)) process.env.PORTAL_TEST_CHROMIUM = chromium;
    else process.env.PORTAL_TEST_NO_BROWSER = `no Chromium at ${chromium}: apt-get install -y chromium (npm test installs it)`;
  }
};
