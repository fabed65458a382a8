/** Sends what an error boundary caught to the server's log (shared/client-error.ts), once per error, best effort. */
import { CLIENT_ERROR_ENDPOINT, CLIENT_ERROR_TEXT_LIMIT, type ClientErrorReport } from '../../client-error';

const reported = new WeakSet<object>();

function describe(error: unknown): Pick<ClientErrorReport, 'message' | 'stack'> {
  if (error instanceof Error) return { message: error.message, ...(error.stack ? { stack: error.stack.slice(0, CLIENT_ERROR_TEXT_LIMIT) } : {}) };
  if (typeof error === 'object' && error !== null && 'status' in error) return { message: `route error response ${String(error.status)}` };
  return { message: String(error) };
}

/** `componentStack`: where in the React tree a render error came from, when React says. */
export function reportClientError(error: unknown, componentStack?: string): void {
  if (typeof error === 'object' && error !== null) {
    if (reported.has(error)) return;
    reported.add(error);
  }
  const described = describe(error);
  const message = described.message;
  const stack = [described.stack, componentStack].filter(Boolean).join('\n').slice(0, CLIENT_ERROR_TEXT_LIMIT);
  const report: ClientErrorReport = {
    path: (window.location.pathname + window.location.search).slice(0, CLIENT_ERROR_TEXT_LIMIT),
    message: message.slice(0, CLIENT_ERROR_TEXT_LIMIT),
    ...(stack ? { stack } : {}),
  };
  // keepalive: the report still goes if the reader leaves the page at once. A failed report changes nothing.
  void fetch(CLIENT_ERROR_ENDPOINT, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(report),
    keepalive: true,
    credentials: 'same-origin',
  }).catch(() => undefined);
}
