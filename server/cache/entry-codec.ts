/**
 * How an entry is written to Redis. Text values keep the plain JSON form (readable with redis-cli, and what
 * entries have always been); byte values (pages) are framed, so they travel and are stored as they are, never
 * base64'd or JSON-escaped: magic · u32 metadata length · metadata JSON (the entry without its value) · value.
 */
import type { CacheEntry, EntryMetadata } from './entry';
import { isCacheEntry } from './entry';
import { BytesMemo } from './bytes-memo';

export const ENTRY_MAGIC = Buffer.from([0x00, 0x43, 0x45, 0x31]); // "\0CE1": JSON never starts with a NUL
/** Magic and the metadata's u32 length: where the metadata starts. */
export const ENTRY_HEAD_BYTES = ENTRY_MAGIC.length + 4;
const OPEN_BRACE = 0x7b;

export function encodeEntry(entry: CacheEntry): string | Buffer {
  if (typeof entry.value === 'string') return JSON.stringify(entry);
  const { value, ...meta } = entry;
  const json = Buffer.from(JSON.stringify(meta), 'utf8');
  const head = Buffer.allocUnsafe(ENTRY_HEAD_BYTES);
  ENTRY_MAGIC.copy(head, 0);
  head.writeUInt32BE(json.length, ENTRY_MAGIC.length);
  return Buffer.concat([head, json, value]);
}

/** The entry, or null for anything else (a foreign, truncated or corrupted value reads as a miss). */
export function decodeEntry(raw: Buffer): CacheEntry | null {
  try {
    if (raw[0] === OPEN_BRACE) return validEntry(JSON.parse(raw.toString('utf8')));
    const head = decodeEntryHead(raw);
    // The value is a view of the reply, not a copy (a tier keeping it copies it: tiered-store.ts).
    return head && { value: raw.subarray(head.valueAt), ...head.meta };
  } catch {
    return null;
  }
}

/**
 * A framed entry's metadata and where its value starts, from its first bytes (the whole entry or only its
 * head); null when they are not a framed entry's. Never throws.
 */
export function decodeEntryHead(raw: Buffer): { meta: EntryMetadata; valueAt: number } | null {
  if (raw.length < ENTRY_HEAD_BYTES || raw[0] !== ENTRY_MAGIC[0] || raw.compare(ENTRY_MAGIC, 0, ENTRY_MAGIC.length, 0, ENTRY_MAGIC.length) !== 0) return null;
  const valueAt = ENTRY_HEAD_BYTES + raw.readUInt32BE(ENTRY_MAGIC.length);
  if (valueAt > raw.length) return null;
  const meta = recentMetadata.valueOf(raw.subarray(ENTRY_HEAD_BYTES, valueAt), parseMetadata);
  return meta && { meta, valueAt };
}

/**
 * Metadata read lately, by its bytes: every hit of an entry read from Redis carries the same metadata, parsed and
 * checked once, not per hit (refusals too). Entries are immutable (callers never change an entry's tags).
 */
const recentMetadata = new BytesMemo<EntryMetadata | null>(256);

function parseMetadata(bytes: Buffer): EntryMetadata | null {
  let meta: unknown;
  try {
    meta = JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof meta !== 'object' || meta === null) return null;
  const entry = validEntry({ ...meta, value: '' });
  if (!entry) return null;
  const { storedAt, ttl, grace, staleIfError, tags, reads, since, withdrawn } = entry;
  return {
    storedAt,
    ttl,
    grace,
    staleIfError,
    tags,
    ...(reads === undefined ? {} : { reads }),
    ...(since === undefined ? {} : { since }),
    ...(withdrawn === undefined ? {} : { withdrawn }),
  };
}

function validEntry(value: unknown): CacheEntry | null {
  return isCacheEntry(value) ? value : null;
}
