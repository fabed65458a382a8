/** Page shapes for the stored-page suites: where the render's nonce falls, and a page shaped like the portal's. */

export const RENDER_NONCE = 'cmVuZGVyLW5vbmNlLTAwMDE=';

/** A page shaped like the portal's: nonce'd scripts in the head, state JSON, Chinese markup repeating the state. */
export function portalLikePage(nonce: string, articles = 120): string {
  // Titles that do not repeat each other (as real headlines), but appear in both the state and the markup.
  const words = '青年志愿者走进社区为老人送去温暖与关怀记者从市团委获悉今年以来全市共组织服务活动千余场';
  let seed = 7;
  const phrase = (length: number) => Array.from({ length }, () => words[(seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % words.length]).join('');
  const items = Array.from({ length: articles }, (_, index) => ({ id: 33_000 + index, title: phrase(16), description: phrase(40) }));
  const head = [
    '<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>青年新闻网</title>',
    `<script nonce="${nonce}">document.documentElement.dataset.theme="day"</script>`,
    ...Array.from({ length: 12 }, (_, index) => `<link rel="modulepreload" href="/assets/chunk-${index}.js">`),
    `<script type="application/json" id="__STATE__">${JSON.stringify({ items })}</script></head>`,
  ];
  const body = items.map((item) => `<li><a href="/detail/2728/${item.id}">${item.title}</a><p>${item.description}</p></li>`);
  // A nonce'd script between the state and the markup, as React's own scripts sit there.
  return `${head.join('')}<body><script nonce="${nonce}">$RC("B:0","S:0")</script><div id="root"><ul>${body.join('')}</ul></div><script nonce="${nonce}" type="module" async>import "/assets/entry.js"</script></body></html>`;
}

/** [what it is, its HTML rendered with RENDER_NONCE] */
export const PAGES: Array<[string, string]> = [
  ['no script', '<!DOCTYPE html><html><body>没有脚本的页面</body></html>'],
  ['one script', `<html><head><script nonce="${RENDER_NONCE}">1</script></head><body>正文</body></html>`],
  [
    'an empty script and a repeated one',
    `<script nonce="${RENDER_NONCE}"></script><script nonce="${RENDER_NONCE}">1</script><script nonce="${RENDER_NONCE}">1</script>`,
  ],
  ['empty', ''],
  ['a portal-like page', portalLikePage(RENDER_NONCE)],
  ['a big portal-like page', portalLikePage(RENDER_NONCE, 1500)],
];
