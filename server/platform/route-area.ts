/**
 * The route label of a request no page handler named (res.locals.metricsRoute): the metrics' `route` label and the
 * access log's `route` field say the same, so a line and its series can be matched (`_data`, `api`, `assets`…).
 * Grouped by area, so odd paths cannot create new series.
 */
export function areaOf(path: string): string {
  if (path === '/healthz' || path === '/readyz' || path === '/metrics') return path.slice(1);
  for (const area of PATH_AREAS) if (path.startsWith(`/${area}/`)) return area;
  return 'other';
}

const PATH_AREAS = ['assets', '_data', 'api', 'media', '_internal'] as const;

/** Every label areaOf can give: their series start at 0 (metrics.ts). */
export const ROUTE_AREAS: readonly string[] = ['healthz', 'readyz', 'metrics', ...PATH_AREAS, 'other'];
