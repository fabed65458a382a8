/**
 * The CLI's one Redis connection per run: connect once, fail fast with a message that says what is wrong
 * (refused, unknown host, a port that does not speak Redis, no answer), never retry forever.
 */
import { createRedisClient, type RedisClient } from '../../server/redis/client';
import { parseRedisTarget, redactRedisUrl, RedisUrlError, type RedisTarget } from '../../server/platform/redis-target';
import { CliError, EXIT, type Globals } from './output';
import { within } from './portals';

/**
 * The ready check and each command once connected wait at most --timeout (5 s by default), the deadline the
 * CLI's messages name: a server that accepts the connection but never answers (a frozen Redis, a firewall's
 * tarpit) or stops answering mid-run ends the command with that message instead of holding it. A Redis answers
 * its ready check, a SCAN step or an UNLINK batch in milliseconds.
 */
export async function connect(url: string, timeoutSeconds: number): Promise<RedisClient> {
  let target: RedisTarget;
  try {
    target = parseRedisTarget(url);
  } catch (error) {
    if (!(error instanceof RedisUrlError)) throw error;
    throw new CliError(`--redis "${redactRedisUrl(url)}": ${error.message}`, EXIT.usage);
  }
  const client = createRedisClient(target, { role: 'cli', commandTimeoutMs: timeoutSeconds * 1000 });
  let cause = '';
  // The socket error (ECONNREFUSED, ENOTFOUND…) says more than connect()'s 'Connection is closed'.
  client.on('error', (error: Error) => {
    cause ||= error.message;
  });
  try {
    await within(client.connect(), timeoutSeconds);
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
  const client = await connect(globals.redis, globals.timeout);
  try {
    return await use(client);
  } finally {
    client.disconnect();
  }
}
