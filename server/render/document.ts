/**
 * The HTML around React's output. The head is written before the shell streams (status, title, state and
 * preloads are known by then); the entry script follows the shell so hydration can start while slow blocks
 * are still streaming.
 */
import type { AppState } from '../../shared/app-state';
import { STATE_SCRIPT_ID } from '../../shared/app-state';
import { hasArticleBody, withArticleBody } from '../../shared/article-body';
import { HOT_NEWS_ID } from '../../shared/constants';
import { escapeHtml } from '../platform/html';
import type { PageHead } from '../../shared/app-state';
import { href } from '../../shared/routes';
import { PREFERENCES_HEAD_SCRIPT } from '../../shared/preferences';
import { READER_HEAD_SCRIPT, READER_STYLE_PATH } from '../../shared/reader-cookie';
import { serializeForScript } from '../../shared/serialize';
import { VISIT_STATS_QUEUE } from '../../shared/visit-stats';

export interface DocumentParts {
  state: AppState;
  nonce: string;
  styles: readonly string[];
  preloads: readonly string[];
  canonicalUrl: string;
  visitStatsScript: string | null;
}

/** Open Graph and Twitter card tags: what a share in WeChat, Weibo or elsewhere shows. */
function socialTags(state: AppState, canonicalUrl: string): string[] {
  const { head } = state.page;
  // Every card has a raster picture: the page's own (loaders keep only absolute raster ones), else the logo.
  const image = head.image ?? `${new URL(canonicalUrl).origin}/logo.png`;
  const meta = (attribute: 'property' | 'name', key: string, value: string) => `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;
  return [
    meta('property', 'og:type', head.ogType ?? 'website'),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', canonicalUrl),
    meta('property', 'og:site_name', state.layout.seo.title),
    meta('property', 'og:locale', 'zh_CN'),
    meta('property', 'og:image', image),
    meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', head.description),
    meta('name', 'twitter:image', image),
  ];
}

/** Feed readers and browsers find the page's RSS feed here: its category's, else the site's hot news. */
function feedLink(state: AppState): string {
  const catid = state.page.head.feedCatid ?? HOT_NEWS_ID;
  const title = `${state.layout.seo.title} RSS`;
  return `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(title)}" href="${escapeHtml(href.rss(catid))}">`;
}

/** One script per structured-data item (an article and its breadcrumb trail, …). */
function jsonLdList(jsonLd: PageHead['jsonLd']): ReadonlyArray<Record<string, unknown>> {
  if (!jsonLd) return [];
  return Array.isArray(jsonLd) ? jsonLd : [jsonLd as Record<string, unknown>];
}

/**
 * An inline script the portal writes. The nonce is its first attribute, always: a response streamed to one
 * reader runs it by that nonce, and a stored page has it taken out and the script allowed by its hash instead
 * (server/cache/stored-page.ts, sealPage, which looks for exactly this opening). No script of the portal's is an
 * external `<script src>` in the markup: under 'strict-dynamic' only a hashed or nonced script may load one.
 */
function inlineScript(n: string, text: string, attributes = ''): string {
  return `<script nonce="${n}"${attributes}>${text}</script>`;
}

/**
 * The statistics counter: its queue, then the counter loaded async by this script (so a hash allows it, and
 * 'strict-dynamic' the counter it inserts), never holding up the page.
 */
function visitStatsTags(script: string | null, n: string): string[] {
  if (!script) return [];
  const queue = `window.${VISIT_STATS_QUEUE}=window.${VISIT_STATS_QUEUE}||[];`;
  const load = `(function(d){var s=d.createElement("script");s.async=true;s.src=${serializeForScript(script)};d.head.appendChild(s)})(document)`;
  return [inlineScript(n, queue + load)];
}

/**
 * The state as the browser gets it (docs/build.md, page weight): without the JSON-LD, which the head carries
 * already and no component reads, and without the article body, which the entry reads back from the document
 * (shared/article-body.ts).
 */
export function stateForBrowser(state: AppState): AppState {
  const { jsonLd: _inHead, ...head } = state.page.head;
  const page = hasArticleBody(state.page) ? withArticleBody(state.page, '') : state.page;
  return { ...state, page: { ...page, head } };
}

export function documentHead({ state, nonce, styles, preloads, canonicalUrl, visitStatsScript }: DocumentParts): string {
  const { head } = state.page;
  const n = escapeHtml(nonce);
  return [
    '<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8">',
    // viewport-fit=cover: the page reaches under a phone's rounded corners and home indicator, and the safe-area
    // insets the float menu's bottom bar and the frame's padding keep clear of are reported (not 0).
    '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">',
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}">`,
    `<meta name="keywords" content="${escapeHtml(head.keywords)}">`,
    // A 404 or error page is not a document to index or share: no canonical URL, no share card.
    ...(state.page.status === 200 ? [`<link rel="canonical" href="${escapeHtml(canonicalUrl)}">`, ...socialTags(state, canonicalUrl)] : []),
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    ...(state.page.status === 200 ? [feedLink(state)] : []),
    // Night mode and text size are applied before the first paint, so a reader never sees the wrong theme flash.
    inlineScript(n, PREFERENCES_HEAD_SCRIPT),
    // The signed-in reader's menu from the first paint on a page cached for everyone: with script, from the
    // reader cookie before the body is parsed; without, from the reader's own stylesheet (after the site's,
    // so its rules win).
    inlineScript(n, READER_HEAD_SCRIPT),
    // Data blocks (JSON-LD, the state) are never executed, so the CSP does not govern them: no nonce, no hash.
    ...jsonLdList(head.jsonLd).map((item) => `<script type="application/ld+json">${serializeForScript(item)}</script>`),
    ...styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    `<noscript><link rel="stylesheet" href="${READER_STYLE_PATH}"></noscript>`,
    // No nonce: a modulepreload is fetched as a non-parser-inserted script, which 'strict-dynamic' allows
    // (checked in Chromium by test/browser/csp.test.ts); the bootstrap's import loads the same files anyway.
    ...preloads.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`),
    `<script type="application/json" id="${STATE_SCRIPT_ID}">${serializeForScript(stateForBrowser(state))}</script>`,
    ...visitStatsTags(visitStatsScript, n),
    '</head><body><div id="root">',
  ].join('');
}

/**
 * The bundle's bootstrap: an inline module importing the entry, async so hydration starts as soon as the entry
 * and its chunks are in, while slow blocks may still be streaming. An inline script rather than `<script src>`:
 * a stored page allows it by its hash, and 'strict-dynamic' the modules it imports.
 */
export function documentAfterShell(entryScript: string, nonce: string): string {
  return `</div>${inlineScript(escapeHtml(nonce), `import ${serializeForScript(entryScript)}`, ' type="module" async')}`;
}

export const DOCUMENT_END = '</body></html>';
