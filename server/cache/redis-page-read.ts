/**
 * A page entry read from Redis in the one form a response sends: its metadata, its layout, and then only its
 * identity, gzip or brotli bytes, in one round trip (a Lua script). A whole entry holds every form (`/home`:
 * 67 KB of text, 14 KB of gzip, 12 KB of brotli); with L1 off a compressed hit would read all of it to send one,
 * and every read's bytes were allocated, joined and collected (docs/benchmark.md, "Reading one form of a page").
 * The form comes as views of the socket's read, in parts of at most 16 KiB as chunked-get.ts reads whole values
 * (ioredis copies a reply that spans two socket reads into a pool it grows), joined here.
 *
 * The entry's bytes are the ones the whole read sees (entry-codec.ts around stored-page.ts's stored form); the
 * script takes its offsets from them and sends back nothing for a value of any other shape, or one whose length
 * is not what its layout adds up to (a truncated value is a miss, as for the whole read).
 */
import type { RedisClient } from '../redis/client';
import { PIECE_BYTES } from '../redis/chunked-get';
import { LuaScript } from '../redis/lua-script';
import type { EntryMetadata } from './entry';
import { decodeEntryHead, ENTRY_HEAD_BYTES, ENTRY_MAGIC } from './entry-codec';
import { decodePageForm, PAGE_FORMS, PAGE_HEAD_BYTES, PAGE_MAGIC, type HeldPage, type PageForm } from './stored-page';

/** The entry's metadata with the page as held for one response. */
export interface HeldPageEntry extends EntryMetadata {
  page: HeldPage;
}

const luaBytes = (bytes: Buffer) => `string.char(${[...bytes].join(',')})`;

/**
 * nil for a missing key; an empty array for a value that is not a framed page (the caller's miss); otherwise the
 * head (entry frame, metadata, page magic, layout) and the form's bytes in parts of at most PIECE_BYTES
 * (chunked-get.ts says why).
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
if not parsed or type(layout) ~= 'table' then return {} end
local at, size, total = layoutEnd, nil, 0
for _, name in ipairs({ ${PAGE_FORMS.map((form) => `'${form}'`).join(', ')} }) do
  local bytes = layout[name]
  if type(bytes) ~= 'number' or bytes < 0 then return {} end
  if name == form then size = bytes; at = layoutEnd + total end
  total = total + bytes
end
if not size or layoutEnd + total ~= length then return {} end
local most = tonumber(ARGV[2])
local reply = { head }
for offset = at, at + size - 1, most do
  reply[#reply + 1] = redis.call('GETRANGE', key, offset, math.min(offset + most, at + size) - 1)
end
return reply`);

/**
 * The page at `key` with only its `form` bytes; null when the key holds none, or a value that is not a whole page
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
    return { ...entry.meta, page: decodePageForm(head!.subarray(entry.valueAt), form, parts.length === 1 ? parts[0]! : Buffer.concat(parts)) };
  } catch {
    return null;
  }
}
