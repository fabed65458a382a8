/**
 * Text for XML documents: escaped, and stripped of control characters XML 1.0 forbids (CMS text has them).
 *
 * RSS needs more than that (docs/security.md, "Feeds carry the CMS's text as text"): after the XML parser has
 * decoded an element, feed readers render `<description>` as HTML (the RSS 2.0 spec allows entity-encoded HTML
 * there) and many render `<title>` as HTML too. A CMS summary `<img src=x onerror=…>` escaped once would be markup
 * again in the reader. So each RSS text states what it is: rssHtmlText for HTML elements, rssPlainText for the rest.
 */
import { escapeHtml } from '../platform/html';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function xmlText(text: string): string {
  return escapeHtml(text.replace(XML_FORBIDDEN, ''));
}

/**
 * An element readers render as HTML (`<description>`), holding text: escaped for HTML, then for XML, so the
 * reader shows exactly the characters the portal's own page shows (markup, `]]>` and entities included: a CMS
 * `&lt;` reads `&lt;` in both), and no tag or entity of the CMS's can take effect.
 */
export function rssHtmlText(text: string): string {
  return xmlText(escapeHtml(text));
}

/**
 * An element meant as plain text that some readers render as HTML (`<title>`, `<source>`): escaped for XML, with
 * `<` also escaped for HTML (`&amp;lt;`), so no tag can open whichever way the reader reads it. Only `<` is
 * doubled: `&` stays single (a reader decoding entities in a title would show 'AT&amp;T' otherwise), and an
 * entity decoded by an HTML reader is text, never markup.
 */
export function rssPlainText(text: string): string {
  return xmlText(text).replace(/&lt;/g, '&amp;lt;');
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
