import { serializeForScript } from '../../shared/serialize';

describe('serializeForScript', () => {
  const hostile = {
    title: '</script><script>alert(1)</script>',
    comment: '<!-- <script>',
    separators: 'a\u2028b\u2029c',
    amp: 'AT&T',
  };

  it('leaves no character that can end a script element or a JS line', () => {
    const text = serializeForScript(hostile);
    expect(text).not.toMatch(/[<>\u2028\u2029&]/);
  });

  it('parses back to the same value', () => {
    expect(JSON.parse(serializeForScript(hostile))).toEqual(hostile);
  });
});
