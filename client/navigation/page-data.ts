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

/** Page data fetched on hover, used by the navigation that follows within PREFETCH_FRESH_MS. */
const prefetched = new Map<string, { at: number; response: Promise<PageDataResponse> }>();
const PREFETCH_FRESH_MS = 30_000;
const PREFETCH_MAX = 10;

export function prefetchPageData(path: string): void {
  const known = prefetched.get(path);
  if (known && Date.now() - known.at < PREFETCH_FRESH_MS) return;
  const response = requestPageData(path);
  // A failed guess costs nothing: the click will ask again.
  response.catch(() => prefetched.delete(path));
  prefetched.set(path, { at: Date.now(), response });
  if (prefetched.size > PREFETCH_MAX) prefetched.delete(prefetched.keys().next().value as string);
}

export async function fetchPageData(path: string, fromHistory: boolean): Promise<PageDataResponse> {
  const known = fromHistory ? visited.get(path) : undefined;
  if (known) return known;
  const hovered = prefetched.get(path);
  prefetched.delete(path);
  if (hovered && Date.now() - hovered.at < PREFETCH_FRESH_MS) return hovered.response.catch(() => requestPageData(path));
  return requestPageData(path);
}

async function requestPageData(path: string): Promise<PageDataResponse> {
  const response = await fetch(`${PAGE_DATA_ENDPOINT}?path=${encodeURIComponent(path)}`, {
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
  });
  // 404, 500 and 503 answers carry a page state too (the not-found and error pages); anything else — a 429 from
  // the rate limit, a proxy's HTML error page, a JSON error — is a failure, not a page.
  if (!response.headers.get('content-type')?.includes('application/json')) throw new Error(`page data ${response.status}`);
  const body: unknown = await response.json();
  if (!isPageDataResponse(body)) throw new Error(`page data ${response.status}: not a page`);
  rememberPage(path, body);
  return body;
}

function isPageDataResponse(body: unknown): body is PageDataResponse {
  if (typeof body !== 'object' || body === null) return false;
  const answer = body as { kind?: unknown; location?: unknown; page?: unknown };
  if (answer.kind === 'redirect') return typeof answer.location === 'string' && answer.location.startsWith('/') && !answer.location.startsWith('//');
  if (answer.kind === 'document') return typeof answer.location === 'string' && /^https?:\/\//.test(answer.location);
  if (answer.kind !== 'page' || typeof answer.page !== 'object' || answer.page === null) return false;
  const page = answer.page as { path?: unknown; page?: unknown; status?: unknown };
  return typeof page.path === 'string' && typeof page.page === 'string' && typeof page.status === 'number';
}
