/**
 * A store that must answer (sessions, pending sign-ins) could not: Redis refused the command (READONLY from a
 * replica after a failover, OOM, MISCONF, CLUSTERDOWN, LOADING), timed out, or is not connected. Callers answer
 * it with a 503 and Retry-After (`status`, read by the app's error handler), never a 500; the cache never
 * meets it, since its reads and writes turn every failure into a miss (server/cache/store.ts).
 */
export class StoreUnavailableError extends Error {
  readonly status = 503;

  constructor(operation: string, cause: unknown) {
    super(`${operation}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StoreUnavailableError';
  }
}

/** For `.catch`: any failure of `operation` becomes a StoreUnavailableError. */
export function unavailable(operation: string): (cause: unknown) => never {
  return (cause) => {
    throw new StoreUnavailableError(operation, cause);
  };
}

/** How long a client should wait before trying again after a 503 (a failover or restart takes seconds). */
export const STORE_RETRY_AFTER_SECONDS = 30;
