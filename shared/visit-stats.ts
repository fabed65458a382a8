/**
 * Visit statistics (docs/product.md §9: keyed per host). Each site's host has its own statistics id; the page loads the
 * statistics script for that id (Baidu Tongji's `hm.js?{id}` by default, the usual counter of Chinese news
 * sites). Its command queue is `window._hmt`; client-side navigations are reported through it as page views.
 */
export const VISIT_STATS_QUEUE = '_hmt';
export const VISIT_STATS_ID_PATTERN = /^[A-Za-z0-9]{1,64}$/;

/** `host=id,host=id` → host → id; null and the offending item when one is malformed. */
export function parseVisitStatsIds(value: string): { ids: Map<string, string> } | { bad: string } {
  const ids = new Map<string, string>();
  for (const item of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [host, id, ...rest] = item.split('=').map((part) => part.trim());
    if (!host || !id || rest.length > 0 || !VISIT_STATS_ID_PATTERN.test(id)) return { bad: item };
    ids.set(host.toLowerCase(), id);
  }
  return { ids };
}

/** The statistics script's URL for one id: the template's `{id}` replaced, URL-encoded. */
export function visitStatsScriptUrl(template: string, id: string): string {
  return template.replace('{id}', encodeURIComponent(id));
}

interface StatsQueue {
  push: (command: readonly unknown[]) => unknown;
}

/** Reports a client-side navigation as a page view, when the statistics script is on the page. */
export function trackPageView(path: string, target: Record<string, unknown> = globalThis as unknown as Record<string, unknown>): boolean {
  const queue = target[VISIT_STATS_QUEUE] as Partial<StatsQueue> | undefined;
  if (typeof queue?.push !== 'function') return false;
  queue.push(['_trackPageview', path]);
  return true;
}
