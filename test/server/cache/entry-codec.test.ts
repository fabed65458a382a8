/** How entries are written to Redis: text entries as the JSON they always were, byte entries framed, unchanged. */
import { randomBytes } from 'node:crypto';
import type { CacheEntry } from '../../../server/cache/entry';
import { decodeEntry, encodeEntry } from '../../../server/cache/entry-codec';

const META = { storedAt: 1_700_000_000_000, ttl: 30, grace: 300, staleIfError: 86_400, tags: ['site:0', 'page:home', '频道'] };

function asBytes(encoded: string | Buffer): Buffer {
  return typeof encoded === 'string' ? Buffer.from(encoded, 'utf8') : encoded;
}

describe('entry codec', () => {
  it('keeps text entries as plain JSON', () => {
    const entry: CacheEntry = { ...META, value: '{"code":0,"data":"青年"}' };
    const encoded = encodeEntry(entry);
    expect(encoded).toBe(JSON.stringify(entry));
    expect(decodeEntry(asBytes(encoded))).toEqual(entry);
  });

  it('round-trips byte values exactly, every byte value included', () => {
    const value = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, index) => index)), randomBytes(100_000)]);
    const decoded = decodeEntry(asBytes(encodeEntry({ ...META, value })));
    expect(decoded).toMatchObject(META);
    expect(Buffer.isBuffer(decoded?.value)).toBe(true);
    expect((decoded?.value as Buffer).equals(value)).toBe(true);
  });

  it('reads each frame with its own value when many carry the same metadata (parsed once, like every Redis hit of an entry)', () => {
    const values = Array.from({ length: 3 }, (_, index) => Buffer.from(`page ${index} 青年`));
    const decoded = values.map((value) => decodeEntry(asBytes(encodeEntry({ ...META, value }))));
    decoded.forEach((entry, index) => {
      expect(entry).toMatchObject(META);
      expect((entry?.value as Buffer).equals(values[index]!)).toBe(true);
    });
    // A frame cut short after its metadata was read whole before still reads as nothing.
    const whole = asBytes(encodeEntry({ ...META, value: Buffer.from('abc') }));
    expect(decodeEntry(whole.subarray(0, whole.length - 40))).toBeNull();
  });

  it('refuses bad metadata every time it is seen, not only the first', () => {
    const bad = Buffer.concat([Buffer.from([0, 0x43, 0x45, 0x31, 0, 0, 0, 14]), Buffer.from('{"ttl":"soon"}'), Buffer.from('value')]);
    expect(decodeEntry(bad)).toBeNull();
    expect(decodeEntry(bad)).toBeNull();
  });

  it('reads entries written before stale-if-error existed', () => {
    const { staleIfError: _omitted, ...old } = META;
    expect(decodeEntry(Buffer.from(JSON.stringify({ ...old, value: 'x' })))).toEqual({ ...old, value: 'x' });
  });

  it.each<[string, Buffer]>([
    ['garbage', Buffer.from([0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 1])],
    ['empty', Buffer.alloc(0)],
    ['broken JSON', Buffer.from('{"value":')],
    ['JSON of something else', Buffer.from('{"ttl":"soon"}')],
    ['a frame cut short', asBytes(encodeEntry({ ...META, value: Buffer.from('abc') })).subarray(0, 12)],
    ['a frame with bad metadata', Buffer.concat([Buffer.from([0, 0x43, 0x45, 0x31, 0, 0, 0, 2]), Buffer.from('{}')])],
  ])('reads %s as nothing', (_name, raw) => {
    expect(decodeEntry(raw)).toBeNull();
  });
});
