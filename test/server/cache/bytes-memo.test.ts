/** Values remembered by the bytes they were worked out from (server/cache/bytes-memo.ts). */
import { BytesMemo } from '../../../server/cache/bytes-memo';

function counting() {
  const seen: string[] = [];
  return { seen, compute: (bytes: Buffer) => (seen.push(bytes.toString('latin1')), bytes.toString('latin1').toUpperCase()) };
}

describe('BytesMemo', () => {
  it('works out each distinct content once, whatever buffer it arrives in', () => {
    const memo = new BytesMemo<string>(8);
    const { seen, compute } = counting();
    expect(memo.valueOf(Buffer.from('abc'), compute)).toBe('ABC');
    expect(memo.valueOf(Buffer.from('xxabcxx').subarray(2, 5), compute)).toBe('ABC');
    expect(memo.valueOf(Buffer.from('abc'), compute)).toBe('ABC');
    expect(seen).toEqual(['abc']);
  });

  it('tells apart contents of the same length and of every length around it', () => {
    const memo = new BytesMemo<string>(64);
    const { seen, compute } = counting();
    const contents = ['abc', 'abd', 'bbc', 'ab', 'abcd', '', 'ABC', 'abc\0'];
    for (const content of contents) expect(memo.valueOf(Buffer.from(content, 'latin1'), compute)).toBe(content.toUpperCase());
    for (const content of contents) expect(memo.valueOf(Buffer.from(content, 'latin1'), compute)).toBe(content.toUpperCase());
    expect(seen).toEqual(contents);
  });

  it('keeps its own copy: bytes changed in the buffer they came in do not change what it remembers', () => {
    const memo = new BytesMemo<string>(8);
    const { seen, compute } = counting();
    const socketRead = Buffer.from('..metadata..');
    memo.valueOf(socketRead.subarray(2, 10), compute);
    socketRead.write('METADATA', 2, 'latin1');
    expect(memo.valueOf(socketRead.subarray(2, 10), compute)).toBe('METADATA');
    expect(memo.valueOf(Buffer.from('metadata'), compute)).toBe('METADATA');
    expect(seen).toEqual(['metadata', 'METADATA']);
  });

  it('forgets the oldest past its bound, and only it', () => {
    const memo = new BytesMemo<string>(3);
    const { seen, compute } = counting();
    for (const content of ['a1', 'a2', 'b33', 'c444']) memo.valueOf(Buffer.from(content), compute);
    seen.length = 0;
    for (const content of ['a2', 'b33', 'c444']) memo.valueOf(Buffer.from(content), compute);
    expect(seen).toEqual([]);
    memo.valueOf(Buffer.from('a1'), compute);
    expect(seen).toEqual(['a1']);
    // 'a1' came back in place of the oldest ('a2'), which is worked out again when it comes.
    memo.valueOf(Buffer.from('a2'), compute);
    expect(seen).toEqual(['a1', 'a2']);
  });

  it('remembers a refusal as well as an answer', () => {
    const memo = new BytesMemo<string | null>(8);
    let computed = 0;
    const refuse = () => (computed++, null);
    expect(memo.valueOf(Buffer.from('{bad'), refuse)).toBeNull();
    expect(memo.valueOf(Buffer.from('{bad'), refuse)).toBeNull();
    expect(computed).toBe(1);
  });
});
