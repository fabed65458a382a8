/**
 * The signed-in reader's public profile in a cookie page script may read (`portal_reader`), so a page cached for
 * everyone can show the reader's menu from the first paint: the head script below reads it before the body is
 * parsed and turns the header's reader menu on through CSS, and the client switches to the signed-in state after
 * hydration from the same cookie. It holds only what the header shows (user_id, nickname, avatar), never the
 * token: the session cookie stays httpOnly and the server's session stays the authority for every account call.
 *
 * The value is base64url of the JSON profile: cookie-safe without further escaping, and compact for Chinese
 * nicknames. Every reader of it validates what it finds, since anything on the reader's machine can write it.
 */
import type { PublicUser } from './app-state';

export const READER_COOKIE = 'portal_reader';
/** Set on <html> by the head script when the cookie names a reader; main.css shows the reader menu under it. */
export const READER_ATTRIBUTE = 'data-reader';
/** Custom properties the reader menu's avatar and nickname are drawn from before React knows the reader. */
export const READER_NICKNAME_PROPERTY = '--reader-nickname';
export const READER_AVATAR_PROPERTY = '--reader-avatar';
/** The stylesheet a browser without script loads (from <noscript>) to show the same menu. */
export const READER_STYLE_PATH = '/_data/reader.css';

const MAX_NICKNAME = 200;
const MAX_AVATAR = 2048;
/** Well under a browser's 4096 bytes a cookie, leaving room for the others on the domain. */
export const MAX_READER_COOKIE = 3072;

function toBase64Url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(value: string): string {
  const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/**
 * Only a web address or a site-relative path (the CMS gives its avatars as '/uploads/…', issue 29) is drawn as the
 * avatar; anything else (javascript:, data:, a protocol-relative '//host' or '/\\host' another site's) is none.
 */
function safeAvatar(value: unknown): string {
  if (typeof value !== 'string' || value.length > MAX_AVATAR || !/^(?:https?:\/\/[^\s]+|\/(?![/\\])[^\s]*)$/i.test(value)) return '';
  return value;
}

/** The profile as the cookie's value; the avatar is left out when keeping it would make the cookie too large. */
export function encodeReaderCookie(user: PublicUser): string {
  const nickname = user.nickname.slice(0, MAX_NICKNAME);
  const full = toBase64Url(JSON.stringify({ user_id: user.user_id, nickname, avatar: safeAvatar(user.avatar) }));
  if (full.length <= MAX_READER_COOKIE) return full;
  return toBase64Url(JSON.stringify({ user_id: user.user_id, nickname, avatar: '' }));
}

/** The profile a cookie value holds, or null for anything that is not one (too long, not base64url, wrong shape). */
export function decodeReaderCookie(value: string): PublicUser | null {
  if (value.length === 0 || value.length > MAX_READER_COOKIE || !/^[A-Za-z0-9_-]+$/.test(value)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(fromBase64Url(value));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { user_id, nickname } = parsed as Record<string, unknown>;
  if (typeof user_id !== 'number' || !Number.isSafeInteger(user_id) || user_id <= 0) return null;
  if (typeof nickname !== 'string' || nickname.length > MAX_NICKNAME) return null;
  return { user_id, nickname, avatar: safeAvatar((parsed as Record<string, unknown>).avatar) };
}

/** The reader named by a `document.cookie` string, or null. */
export function readerFromCookieHeader(cookies: string): PublicUser | null {
  for (const part of cookies.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === READER_COOKIE) return decodeReaderCookie(rest.join('='));
  }
  return null;
}

/**
 * A CSS string literal of any text: every character that is not a letter, digit or non-ASCII printable is
 * written as a hex escape, so quotes, backslashes, newlines and `</style>` cannot end the string or the rule.
 * The head script below does the same in plain JavaScript.
 */
export function cssString(text: string): string {
  return `"${text.replace(/[^A-Za-z0-9\u00a0-\ud7ff\ue000-\uffff]/gu, (char) => `\\${char.codePointAt(0)!.toString(16)} `)}"`;
}

/** The custom properties the reader menu is drawn from: nickname, and the avatar when there is one. */
export function readerProperties(user: PublicUser): string {
  const avatar = user.avatar ? `${READER_AVATAR_PROPERTY}:url(${cssString(user.avatar)});` : '';
  return `${READER_NICKNAME_PROPERTY}:${cssString(user.nickname)};${avatar}`;
}

/**
 * The inline head script: before the body is parsed, a readable reader cookie sets the nickname and avatar
 * properties on <html> and marks it with READER_ATTRIBUTE, so the header's first paint is the reader's menu.
 * Tiny and import-free; it mirrors decodeReaderCookie, safeAvatar and cssString. A broken cookie changes nothing.
 */
export const READER_HEAD_SCRIPT =
  `(function(d){try{var m=d.cookie.match(/(?:^|;\\s*)${READER_COOKIE}=([A-Za-z0-9_-]{1,${MAX_READER_COOKIE}})(?:;|$)/);if(!m)return;` +
  `var b=atob(m[1].replace(/-/g,'+').replace(/_/g,'/')),a=new Uint8Array(b.length);for(var i=0;i<b.length;i++)a[i]=b.charCodeAt(i);` +
  `var p=JSON.parse(new TextDecoder('utf-8',{fatal:true}).decode(a));` +
  `if(!p||typeof p.user_id!=='number'||!(p.user_id>0)||typeof p.nickname!=='string'||p.nickname.length>${MAX_NICKNAME})return;` +
  `var q=function(s){return '"'+s.replace(/[^A-Za-z0-9\\u00a0-\\ud7ff\\ue000-\\uffff]/gu,function(c){return '\\\\'+c.codePointAt(0).toString(16)+' '})+'"'};` +
  `var r=d.documentElement;r.style.setProperty('${READER_NICKNAME_PROPERTY}',q(p.nickname));` +
  `if(typeof p.avatar==='string'&&p.avatar.length<=${MAX_AVATAR}&&/^(?:https?:\\/\\/[^\\s]+|\\/(?![/\\\\])[^\\s]*)$/i.test(p.avatar))r.style.setProperty('${READER_AVATAR_PROPERTY}','url('+q(p.avatar)+')');` +
  `r.setAttribute('${READER_ATTRIBUTE}','')}catch(e){}})(document);`;
