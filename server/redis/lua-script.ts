/**
 * A Lua script run by its SHA-1 (EVALSHA: the script's text is sent once per node, not with every call), sent
 * whole when the node does not know it yet: its script cache is empty after a restart or a failover, and on a
 * cluster node not asked before.
 */
import { createHash } from 'node:crypto';
import type { Result } from 'ioredis';
import type { RedisClient } from './client';

// ioredis makes a Buffer-replying twin of every command (`getBuffer`, …), EVAL's and EVALSHA's included, but its
// typings leave these two out.
declare module 'ioredis' {
  interface RedisCommander<Context> {
    evalshaBuffer(sha1: string, numkeys: number, ...args: Array<string | number | Buffer>): Result<unknown, Context>;
    evalBuffer(script: string, numkeys: number, ...args: Array<string | number | Buffer>): Result<unknown, Context>;
  }
}

export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  /**
   * Runs the script on one key, its bulk replies as Buffers (views of the socket's read where a reply fits in
   * one). A promise chain, not an async function: cached hits read from Redis come through here, and each
   * promise it would add is work at that rate.
   */
  runOnKey(client: RedisClient, key: string, ...args: Array<string | number | Buffer>): Promise<unknown> {
    return client.evalshaBuffer(this.sha, 1, key, ...args).catch((error: unknown) => {
      if (error instanceof Error && error.message.startsWith('NOSCRIPT')) return client.evalBuffer(this.source, 1, key, ...args);
      throw error;
    });
  }
}
