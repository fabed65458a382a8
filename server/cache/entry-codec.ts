/**
 * How an entry is written to Redis. Text values keep the plain JSON form (readable with redis-cli, and what
 * entries have always been); byte values (pages) are framed, so they travel and are stored as they are, never
 * base64'd or JSON-escaped: magic · u32 metadata length · metadata JSON (the entry without its value) · value.
 */
import type { CacheEntry } from './entry';
import { isCacheEntry } from './entry';

const MAGIC = Buffer.from([0x00, 0x43, 0x45, 0x31]); // "\0CE1": JSON never starts with a NUL
const OPEN_BRACE = 0x7b;

export function encodeEntry(entry: CacheEntry): string | Buffer {
  if (typeof entry.value === 'string') return JSON.stringify(entry);
  const { value, ...meta } = entry;
  const json = Buffer.from(JSON.stringify(meta), 'utf8');
  const head = Buffer.allocUnsafe(MAGIC.length + 4);
  MAGIC.copy(head, 0);
  head.writeUInt32BE(json.length, MAGIC.length);
  return Buffer.concat([head, json, value]);
}

/** The entry, or null for anything else (a foreign, truncated or corrupted value reads as a miss). */
export function decodeEntry(raw: Buffer): CacheEntry | null {
  try {
    if (raw[0] === OPEN_BRACE) return validEntry(JSON.parse(raw.toString('utf8')));
    if (raw.length < MAGIC.length + 4 || !raw.subarray(0, MAGIC.length).equals(MAGIC)) return null;
    const metaEnd = MAGIC.length + 4 + raw.readUInt32BE(MAGIC.length);
    if (metaEnd > raw.length) return null;
    const meta: unknown = JSON.parse(raw.toString('utf8', MAGIC.length + 4, metaEnd));
    if (typeof meta !== 'object' || meta === null) return null;
    return validEntry({ ...meta, value: raw.subarray(metaEnd) });
  } catch {
    return null;
  }
}

function validEntry(value: unknown): CacheEntry | null {
  return isCacheEntry(value) ? value : null;
}
