/**
 * What was worked out from some bytes, remembered by those bytes: every Redis hit of an entry brings the same
 * metadata and page layout (entry-codec.ts, stored-page.ts), parsed and checked once. The bytes are compared as
 * bytes (by length, then memcmp), not turned into a string key: a page's metadata is kilobytes of tags, and a
 * string of them made and hashed on every hit cost more than the comparison. Bounded; the oldest goes first.
 */
interface Remembered<T> {
  bytes: Buffer;
  value: T;
}

export class BytesMemo<T> {
  private readonly byLength = new Map<number, Array<Remembered<T>>>();
  private readonly order: Array<Remembered<T>> = [];

  constructor(private readonly limit: number) {}

  /** `compute(bytes)`'s value, from memory when the same bytes were seen lately. */
  valueOf(bytes: Buffer, compute: (bytes: Buffer) => T): T {
    const sameLength = this.byLength.get(bytes.length);
    if (sameLength) for (const known of sameLength) if (known.bytes.equals(bytes)) return known.value;
    const value = compute(bytes);
    // A copy: `bytes` is usually a view of a socket read many times its size.
    this.remember({ bytes: Buffer.from(bytes), value });
    return value;
  }

  private remember(entry: Remembered<T>): void {
    if (this.order.length >= this.limit) this.forget(this.order.shift()!);
    this.order.push(entry);
    const sameLength = this.byLength.get(entry.bytes.length);
    if (sameLength) sameLength.push(entry);
    else this.byLength.set(entry.bytes.length, [entry]);
  }

  private forget(entry: Remembered<T>): void {
    const sameLength = this.byLength.get(entry.bytes.length)!;
    sameLength.splice(sameLength.indexOf(entry), 1);
    if (sameLength.length === 0) this.byLength.delete(entry.bytes.length);
  }
}
