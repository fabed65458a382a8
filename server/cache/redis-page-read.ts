/**
 * A page entry read from Redis in the one form a response sends: its metadata, its layout, and then only its plain
 * pieces (identity) or only its deflated ones (gzip), in one round trip (a Lua script).
 * A whole entry holds both forms (`/home`: 67 KB of text and 14 KB of deflate); with L1 off a gzip hit read all
 * 81 KB to send 14, and every read's bytes were allocated, joined and collected: reading the deflated pieces
 * alone made such a hit cost about half the CPU (docs/benchmark.md, "Reading one form of a page"). Pieces come
 * as views of the socket's read, in parts of at most 16 KiB as chunked-get.ts reads whole values (ioredis copies
 * a reply that spans two socket reads into a pool it grows), joined here only for a piece longer than that.
 *
 * The entry's bytes are the ones the whole read sees (entry-codec.ts around precompressed-page.ts's stored
 * form); the script takes its offsets from them and sends back nothing for a value of any other shape, or one
 * whose length is not what its layout adds up to (a truncated value is a miss, as for the whole read).
 */
import type { RedisClient } from '../redis/client';
import { PIECE_BYTES } from '../redis/chunked-get';
import { LuaScript } from '../redis/lua-script';
import type { EntryMetadata } from './entry';
import { decodeEntryHead, ENTRY_HEAD_BYTES, ENTRY_MAGIC } from './entry-codec';
import { decodePageForm, PAGE_HEAD_BYTES, PAGE_MAGIC, type HeldPage, type PageForm } from './precompressed-page';

/** The entry's metadata with the page as held for one response. */
export interface HeldPageEntry extends EntryMetadata {
  page: HeldPage;
}

const luaBytes = (bytes: Buffer) => `string.char(${[...bytes].join(',')})`;

/**
 * nil for a missing key; an empty array for a value that is not a framed page (the caller's miss); otherwise the
 * head (entry frame, metadata, page magic, layout) and the form's pieces as the layout cuts them, each longer
 * than PIECE_BYTES in parts of that size (chunked-get.ts says why).
 */
const SCRIPT = new LuaScript(`
local key, form = KEYS[1], ARGV[1]
local length = redis.call('STRLEN', key)
if length == 0 then return false end
local function framed(at, magic, headBytes)
  local head = redis.call('GETRANGE', key, at, at + headBytes - 1)
  if string.len(head) < headBytes or string.sub(head, 1, #magic) ~= magic then return nil end
  return at + headBytes + struct.unpack('>I4', head, 5)
end
local pageAt = framed(0, ${luaBytes(ENTRY_MAGIC)}, ${ENTRY_HEAD_BYTES})
if not pageAt then return {} end
local layoutEnd = framed(pageAt, ${luaBytes(PAGE_MAGIC)}, ${PAGE_HEAD_BYTES})
if not layoutEnd or layoutEnd > length then return {} end
local head = redis.call('GETRANGE', key, 0, layoutEnd - 1)
local parsed, layout = pcall(cjson.decode, string.sub(head, pageAt + ${PAGE_HEAD_BYTES} + 1))
if not parsed or type(layout) ~= 'table' or type(layout.plain) ~= 'table' or type(layout[form]) ~= 'table' then return {} end
local function total(sizes)
  local sum = 0
  for _, size in ipairs(sizes) do
    if type(size) ~= 'number' or size < 0 then return nil end
    sum = sum + size
  end
  return sum
end
local plainBytes, deflatedBytes = total(layout.plain), total(layout.deflated or {})
if not plainBytes or not deflatedBytes or layoutEnd + plainBytes + deflatedBytes ~= length then return {} end
local at = form == 'deflated' and layoutEnd + plainBytes or layoutEnd
local most = tonumber(ARGV[2])
local reply = { head }
for _, size in ipairs(layout[form]) do
  if size == 0 then reply[#reply + 1] = '' end
  for offset = at, at + size - 1, most do
    reply[#reply + 1] = redis.call('GETRANGE', key, offset, math.min(offset + most, at + size) - 1)
  end
  at = at + size
end
return reply`);

/**
 * The page at `key` with only `form`'s pieces; null when the key holds none, or a value that is not a whole page
 * entry. Rejects only when Redis does (a timeout, a lost connection).
 */
export function readPageForm(client: RedisClient, key: string, form: PageForm): Promise<HeldPageEntry | null> {
  return SCRIPT.runOnKey(client, key, form, PIECE_BYTES).then((reply) => heldPageOf(reply, form));
}

function heldPageOf(reply: unknown, form: PageForm): HeldPageEntry | null {
  if (!Array.isArray(reply) || reply.length === 0 || !reply.every((part) => Buffer.isBuffer(part))) return null;
  const [head, ...parts] = reply as Buffer[];
  const entry = decodeEntryHead(head!);
  if (!entry) return null;
  try {
    return { ...entry.meta, page: decodePageForm(head!.subarray(entry.valueAt), form, (lengths) => joinParts(parts, lengths)) };
  } catch {
    return null;
  }
}

/** The pieces of `lengths` from their parts (one per piece up to PIECE_BYTES, a piece's parts joined beyond it). */
function joinParts(parts: readonly Buffer[], lengths: readonly number[]): Buffer[] {
  const pieces: Buffer[] = [];
  let next = 0;
  for (const length of lengths) {
    const count = Math.max(1, Math.ceil(length / PIECE_BYTES));
    const own = parts.slice(next, next + count);
    next += count;
    pieces.push(own.length === 1 ? own[0]! : Buffer.concat(own));
  }
  if (next !== parts.length) throw new Error('page parts do not match its layout');
  return pieces;
}
