/** Client navigations ask the server for the next page's state (one request; the loaders run on the server). */
import type { PageDataResponse } from '../../shared/app-state';
import { PAGE_DATA_ENDPOINT } from '../../shared/app-state';

/** Recently shown pages, so back and forward are instant. */
const visited = new Map<string, PageDataResponse>();
const VISITED_MAX = 20;

export function rememberPage(path: string, response: PageDataResponse): void {
  visited.delete(path);
  visited.set(path, response);
  if (visited.size > VISITED_MAX) visited.delete(visited.keys().next().value as string);
}

export async function fetchPageData(path: string, fromHistory: boolean): Promise<PageDataResponse> {
  const known = fromHistory ? visited.get(path) : undefined;
  if (known) return known;
  const response = await fetch(`${PAGE_DATA_ENDPOINT}?path=${encodeURIComponent(path)}`, {
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
  });
  // 404, 500 and 503 answers carry a page state too (the not-found and error pages); only non-JSON is a failure.
  if (!response.headers.get('content-type')?.includes('application/json')) throw new Error(`page data ${response.status}`);
  const body = (await response.json()) as PageDataResponse;
  rememberPage(path, body);
  return body;
}
