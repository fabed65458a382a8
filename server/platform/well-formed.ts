/**
 * Well-formed UTF-16: a lone surrogate (a high one not followed by a low one, a low one not after a high one)
 * becomes U+FFFD, as `String.prototype.toWellFormed` does (ES2024; written out here because the project's
 * TypeScript lib is ES2022). A string holding one cannot be encoded: `encodeURIComponent` throws URIError, and UTF-8
 * encoders (Buffer, TextEncoder) silently write U+FFFD in its place. Texts are made well-formed where they enter
 * (docs/security.md, "The content API is not trusted").
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATES, '\ufffd');
}

export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}
