/** The destination React writes a page to: strings in, one buffer per flush out, held until the shell is complete. */
import { FlushingDestination } from '../../../server/render/flushing-destination';

function destination() {
  const sent: string[] = [];
  const endings: boolean[] = [];
  const out = new FlushingDestination(
    (bytes) => sent.push(bytes.toString('utf8')),
    (clean) => endings.push(clean),
  );
  return { out, sent, endings };
}

describe('FlushingDestination', () => {
  it('holds every flush until released, then sends what was written as one buffer', () => {
    const { out, sent } = destination();
    out.add('<head>');
    out.write('<div>青年');
    out.flush();
    out.write('</div>');
    out.flush();
    expect(sent).toEqual([]);
    out.release();
    expect(sent).toEqual(['<head><div>青年</div>']);
  });

  it('sends one buffer per flush once released, nothing for an empty flush, UTF-8 from bytes and strings alike', () => {
    const { out, sent } = destination();
    out.release();
    out.write('<p>新闻');
    out.write(new TextEncoder().encode('网</p>'));
    out.flush();
    out.flush();
    out.write('<p>二</p>');
    out.flush();
    expect(sent).toEqual(['<p>新闻网</p>', '<p>二</p>']);
  });

  it('reports the end once, clean when React ends it and not clean when React destroys it', () => {
    const ended = destination();
    ended.out.end();
    ended.out.end();
    expect(ended.endings).toEqual([true]);

    const destroyed = destination();
    destroyed.out.destroy(new Error('the render failed after the shell'));
    destroyed.out.end();
    expect(destroyed.endings).toEqual([false]);
  });

  it('answers every write as accepted, so React never waits for a drain that would not come', () => {
    const { out } = destination();
    expect(out.write('x'.repeat(1 << 20))).toBe(true);
  });
});
