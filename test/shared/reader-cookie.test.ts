/**
 * The public reader cookie: what it holds, how every reader of it (the server, the client, the inline head
 * script) refuses what is not a profile, and that the CSS the menu is drawn with cannot be broken out of.
 */
import {
  cssString,
  decodeReaderCookie,
  encodeReaderCookie,
  MAX_READER_COOKIE,
  READER_HEAD_SCRIPT,
  readerFromCookieHeader,
  readerProperties,
} from '../../shared/reader-cookie';
import type { PublicUser } from '../../shared/app-state';

/** Runs the head script against a stand-in document; what it set on <html>. */
function runHeadScript(cookie: string): { properties: Record<string, string>; attributes: Record<string, string> } {
  const properties: Record<string, string> = {};
  const attributes: Record<string, string> = {};
  const document = {
    cookie,
    documentElement: {
      style: { setProperty: (name: string, value: string) => (properties[name] = value) },
      setAttribute: (name: string, value: string) => (attributes[name] = value),
    },
  };
  new Function('document', READER_HEAD_SCRIPT)(document);
  return { properties, attributes };
}

function base64url(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64url');
}

const READERS: PublicUser[] = [
  { user_id: 1, nickname: '张三', avatar: 'https://img.example/a.png' },
  { user_id: 2147483647, nickname: 'O\'Brien "the \\ reader" </style><script>', avatar: 'http://img.example/a b.png' },
  { user_id: 3, nickname: '😀 emoji 名字\n换行', avatar: '' },
  { user_id: 4, nickname: '', avatar: 'javascript:alert(1)' },
  // The CMS's own form (issue 29): drawn, as the server-rendered <img> draws it.
  { user_id: 5, nickname: '读者', avatar: '/uploads/avatar/5.png' },
  // Protocol-relative: another site's, never drawn.
  { user_id: 6, nickname: '读者', avatar: '//evil.example/a.png' },
  { user_id: 7, nickname: '读者', avatar: '/\\evil.example/a.png' },
];

describe('reader cookie', () => {
  it.each(READERS)('round-trips the public profile, and the head script draws the same (%j)', (user) => {
    const value = encodeReaderCookie(user);
    expect(value).toMatch(/^[A-Za-z0-9_-]+$/);
    const avatar = /^https?:\/\/\S+$/.test(user.avatar) || /^\/uploads\//.test(user.avatar) ? user.avatar : '';
    expect(decodeReaderCookie(value)).toEqual({ ...user, avatar });
    expect(readerFromCookieHeader(`a=1; portal_reader=${value}; b=2`)).toEqual({ ...user, avatar });
    const { properties, attributes } = runHeadScript(`other=x; portal_reader=${value}`);
    expect(attributes).toEqual({ 'data-reader': '' });
    expect(properties['--reader-nickname']).toBe(cssString(user.nickname));
    expect(properties['--reader-avatar']).toBe(avatar ? `url(${cssString(avatar)})` : undefined);
    expect(`${readerProperties({ ...user, avatar })}`).toBe(
      `--reader-nickname:${cssString(user.nickname)};${avatar ? `--reader-avatar:url(${cssString(avatar)});` : ''}`,
    );
  });

  it('never holds more than the profile, and stays small: an oversized avatar is left out', () => {
    const user = { user_id: 9, nickname: '长'.repeat(200), avatar: `https://img.example/${'x'.repeat(2020)}` };
    const withToken = { ...user, token: 'secret-token' } as PublicUser;
    const value = encodeReaderCookie(withToken);
    expect(value.length).toBeLessThanOrEqual(MAX_READER_COOKIE);
    expect(Buffer.from(value, 'base64url').toString('utf8')).not.toContain('secret-token');
    expect(decodeReaderCookie(value)).toEqual({ user_id: 9, nickname: user.nickname, avatar: '' });
  });

  it.each([
    ['empty', ''],
    ['not base64url', 'abc$%^'],
    ['not JSON', base64url('hello')],
    ['an array', base64url('[1,2]')],
    ['no user id', base64url('{"nickname":"a","avatar":""}')],
    ['a zero user id', base64url('{"user_id":0,"nickname":"a","avatar":""}')],
    ['a string user id', base64url('{"user_id":"7","nickname":"a","avatar":""}')],
    ['a number nickname', base64url('{"user_id":7,"nickname":5,"avatar":""}')],
    ['a nickname too long', base64url(JSON.stringify({ user_id: 7, nickname: 'x'.repeat(201), avatar: '' }))],
    ['too long a value', 'A'.repeat(MAX_READER_COOKIE + 1)],
    ['bad UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('base64url')],
  ])('refuses %s, in the server, the client and the head script alike', (_label, value) => {
    expect(decodeReaderCookie(value)).toBeNull();
    expect(readerFromCookieHeader(`portal_reader=${value}`)).toBeNull();
    expect(runHeadScript(`portal_reader=${value}`)).toEqual({ properties: {}, attributes: {} });
  });

  it('ignores cookies whose name only contains the reader cookie name', () => {
    const value = encodeReaderCookie(READERS[0]!);
    expect(readerFromCookieHeader(`xportal_reader=${value}`)).toBeNull();
    expect(runHeadScript(`xportal_reader=${value}`).attributes).toEqual({});
    expect(runHeadScript('').attributes).toEqual({});
  });

  it.each(['"', '\\', '\n', '</style>', ';}body{display:none', ')', '\u0000', '😀'])('escapes %j so it cannot end the CSS string', (text) => {
    const literal = cssString(`a${text}b`);
    expect(literal.startsWith('"') && literal.endsWith('"')).toBe(true);
    expect(literal.slice(1, -1)).toMatch(/^[A-Za-z0-9 \\\u00a0-\uffff]*$/);
    expect(literal.slice(1, -1)).not.toMatch(/["<>;{}()\n]/);
  });
});
