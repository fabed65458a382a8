/**
 * Prefetching the next page's data on hover spends the reader's bandwidth on a guess; docs/product.md §4 says not to on a
 * 2g connection or when the reader asked to save data.
 */
export interface ConnectionHints {
  effectiveType?: string;
  saveData?: boolean;
}

export function prefetchAllowed(connection: ConnectionHints | undefined): boolean {
  if (!connection) return true;
  if (connection.saveData === true) return false;
  return connection.effectiveType !== '2g' && connection.effectiveType !== 'slow-2g';
}
