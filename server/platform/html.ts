/** Text for HTML written outside React (the document head the server emits): escaped for element text and attribute values. */
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/** The last fallback when even the error page cannot render: plain HTML, no script. */
export function bareErrorDocument(status: number, message: string): string {
  return (
    '<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>' +
    `${status} ${escapeHtml(message)}</title></head><body><h1>${escapeHtml(message)}</h1>` +
    '<p><a href="/">返回首页</a></p></body></html>'
  );
}
