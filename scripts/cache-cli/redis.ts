/**
 * The CLI's one Redis connection per run: connect once, fail fast with a message that says what is wrong
 * (refused, unknown host, a port that does not speak Redis, no answer), never retry forever.
 */
import { createRedisClient, type RedisClient } from '../../server/redis/client';
import { parseRedisTarget, redactRedisUrl, RedisUrlError, type RedisTarget } from '../../server/redis/target';
import { CliError, EXIT, type Globals } from './output';
import { within } from './portals';

/**
 * A server that accepts the connection but never answers (a firewall's tarpit, a stuck process) would hold the
 * CLI forever; a Redis answers its ready check in milliseconds, so this is generous even on a loaded machine.
 */
const READY_TIMEOUT_MS = 15_000;

/**
 * Each command once connected: a Redis that stops answering mid-run (a failover, a stuck server) ends the command
 * with an error instead of holding it. A SCAN step or an UNLINK batch takes milliseconds; this is far above that.
 */
const COMMAND_TIMEOUT_MS = 30_000;

export async function connect(url: string): Promise<RedisClient> {
  let target: RedisTarget;
  try {
    target = parseRedisTarget(url);
  } catch (error) {
    if (!(error instanceof RedisUrlError)) throw error;
    throw new CliError(`--redis "${redactRedisUrl(url)}": ${error.message}`, EXIT.usage);
  }
  const client = createRedisClient(target, { role: 'cli', commandTimeoutMs: COMMAND_TIMEOUT_MS });
  let cause = '';
  // The socket error (ECONNREFUSED, ENOTFOUND…) says more than connect()'s 'Connection is closed'.
  client.on('error', (error: Error) => {
    cause ||= error.message;
  });
  try {
    await within(client.connect(), READY_TIMEOUT_MS / 1000);
    return client;
  } catch (error) {
    client.disconnect();
    throw new CliError(unreachable(url, cause || (error instanceof Error ? error.message : String(error))), EXIT.redis);
  }
}

function unreachable(url: string, cause: string): string {
  // ioredis reads an HTTP or other server's first byte as a reply type and asks to "report this".
  if (/Protocol error/i.test(cause)) return `${redactRedisUrl(url)} is not a Redis server (its answer is not the Redis protocol; check --redis / REDIS_URL)`;
  return `cannot reach Redis at ${redactRedisUrl(url)}: ${cause}`;
}

export async function withRedis<T>(globals: Globals, use: (client: RedisClient) => Promise<T>): Promise<T> {
  const client = await connect(globals.redis);
  try {
    return await use(client);
  } finally {
    client.disconnect();
  }
}
