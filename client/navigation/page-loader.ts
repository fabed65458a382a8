/**
 * The browser's loader of every page route (shared/ui/routes.tsx): the next page's state from `/_data/page` (its
 * loaders run on the server; one request), from memory for back and forward, or from a hover's prefetch.
 * The server's answer may send the navigation elsewhere: another spelling of the path (a redirect in the app),
 * or, for a phone opening an article, the mobile site (a document load, as a typed URL would get).
 */
import { redirect, redirectDocument, type LoaderFunctionArgs } from 'react-router-dom';
import type { PageState } from '../../shared/app-state';
import { pageAddress } from '../../shared/page-address';
import { reloadAfterError } from './error-reload';
import { PageDataUnavailable } from '../../shared/ui/RouteError';
import { fetchPageData } from './page-data';

/** Set by a popstate (back/forward) until the loader it starts has read it: those may be answered from memory. */
let historyNavigation = false;

/** Call once, before the router is made, so this listener runs before the router's own popstate handler. */
export function watchHistoryNavigations(): void {
  window.addEventListener('popstate', () => {
    historyNavigation = true;
  });
  // A move within the page (跳到正文, or back from it) loads nothing, so no loader would take the flag: the next
  // link's page must not be answered from memory as if it came from history.
  window.addEventListener('hashchange', () => {
    historyNavigation = false;
  });
}

function takeHistoryNavigation(): boolean {
  const value = historyNavigation;
  historyNavigation = false;
  return value;
}

/** Never settles: the tab is loading another document. */
const leaving = (): Promise<never> => new Promise(() => undefined);

export async function pageLoader({ request }: LoaderFunctionArgs): Promise<PageState | Response> {
  const url = new URL(request.url);
  // Parameters the page does not read (utm_*, from=singlemessage) do not make it another page.
  const path = pageAddress(url.pathname, url.search);
  const fromHistory = takeHistoryNavigation();
  let answer;
  try {
    answer = await fetchPageData(path, fromHistory);
  } catch (error) {
    // Its data could not be had (429, 5xx, not JSON, offline): load the page the ordinary way, but not more than
    // once a minute, so no answer can loop the tab; past that the route's error boundary shows the error page.
    if (reloadAfterError(path)) return leaving();
    throw new PageDataUnavailable(path, error);
  }
  if (answer.kind === 'redirect') return redirect(answer.location);
  if (answer.kind === 'document') return redirectDocument(answer.location);
  return answer.page;
}
