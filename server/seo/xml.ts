/** Text for XML documents: escaped, and stripped of control characters XML 1.0 forbids (CMS text has them). */
import { escapeHtml } from '../../shared/html';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function xmlText(text: string): string {
  return escapeHtml(text.replace(XML_FORBIDDEN, ''));
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
