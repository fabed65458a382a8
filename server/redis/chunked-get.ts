/**
 * GET of a value as pieces of at most 16 KiB, in one round trip and one atomic read (a Lua script: GETRANGE in a
 * loop). Why: ioredis's reply parser copies any bulk string that spans two socket reads (on loopback, 64 KiB
 * each) into a pool it reallocates as it fills, several times the value's size, so every large reply lands in
 * freshly mapped memory: a 96 KiB GET cost 8–16 page faults and 206–298 µs of CPU, an array of 16 KiB pieces
 * none and 72–94 µs, joining them included (docs/benchmark.md, "Reading an entry from Redis in pieces"). Pieces that fit
 * in one socket read arrive as views of it, uncopied. The value's format in Redis is unchanged: a plain GET
 * (redis-cli, the cache CLI) still reads it.
 */
import type { RedisClient } from './client';
import { LuaScript } from './lua-script';

export const PIECE_BYTES = 16 * 1024;

/** nil for a missing key (or an empty value, never a valid entry); a WRONGTYPE key fails the script. */
const SCRIPT = new LuaScript(`
local size = tonumber(ARGV[1])
local length = redis.call('STRLEN', KEYS[1])
if length == 0 then return false end
local pieces = {}
for offset = 0, length - 1, size do
  pieces[#pieces + 1] = redis.call('GETRANGE', KEYS[1], offset, offset + size - 1)
end
return pieces`);

/** The value as one Buffer, or null when the key holds none. */
export function getInPieces(client: RedisClient, key: string): Promise<Buffer | null> {
  return SCRIPT.runOnKey(client, key, PIECE_BYTES).then(joinPieces);
}

function joinPieces(reply: unknown): Buffer | null {
  if (reply === null) return null;
  if (!Array.isArray(reply) || !reply.every((piece) => Buffer.isBuffer(piece))) throw new Error('chunked GET: unexpected reply');
  const pieces = reply as Buffer[];
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
}
