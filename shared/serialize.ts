/**
 * JSON for an inline <script>: no string from upstream can close the script element, open a comment or
 * break a JS parser. `<`, `>`, `&`, U+2028 and U+2029 become \u escapes, which JSON.parse reads back unchanged.
 */
const UNSAFE_CHARS = /[<>&\u2028\u2029]/g;

const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function serializeForScript(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE_CHARS, (ch) => ESCAPES[ch] ?? ch);
}
