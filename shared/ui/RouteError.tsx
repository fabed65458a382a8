/**
 * The error boundaries of the routes (shared/ui/routes.tsx). A page route's shows the portal's error page inside
 * the layout (header, footer and a way home stay) when its loader or its page's render fails; the root route's
 * shows it alone, when the layout itself failed. Both report the error to the server's log, from the browser only
 * (an effect; a server render that fails is the server's to log).
 */
import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { reportClientError } from './lib/report-error';
import { TEXT } from '../constants';
import { ErrorPage } from './StatusPage';

/** What the error page says when the next page's data could not be had. */
const NAVIGATION_FAILED = '页面加载失败，请稍后重试';

/** A page route's loader could not have the next page's data (429, 5xx, not a page, offline). */
export class PageDataUnavailable extends Error {
  constructor(path: string, cause: unknown) {
    super(`page data for ${path} could not be had`, { cause });
    this.name = 'PageDataUnavailable';
  }
}

/** The error a page's document was rendered with on the server (its loader or render failed): logged there already. */
export class ServerRenderedError extends Error {
  constructor(readonly status: number) {
    super(`the server rendered this page's error boundary (${status})`);
    this.name = 'ServerRenderedError';
  }
}

function statusOf(error: unknown): number {
  if (error instanceof ServerRenderedError) return error.status;
  return isRouteErrorResponse(error) ? error.status : 500;
}

function useReportedError(): unknown {
  const error = useRouteError();
  useEffect(() => {
    if (!(error instanceof ServerRenderedError)) reportClientError(error);
  }, [error]);
  return error;
}

export function RouteErrorBoundary() {
  const error = useReportedError();
  const unavailable = error instanceof PageDataUnavailable;
  useEffect(() => {
    document.title = unavailable ? NAVIGATION_FAILED : TEXT.errorDefault;
  }, [unavailable]);
  return <ErrorPage status={statusOf(error)} {...(unavailable ? { message: NAVIGATION_FAILED } : {})} />;
}

export function RootErrorBoundary() {
  const error = useReportedError();
  return (
    <main id="main" className="page-width">
      <ErrorPage status={statusOf(error)} />
    </main>
  );
}
