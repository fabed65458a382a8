/**
 * Whether the page has hydrated: false on the server and while React hydrates the server's HTML (so the two
 * agree), true from the render after. For controls that do nothing without script (issue 29): a reader with
 * script off never meets them, one with script gets them as soon as they work.
 */
import { useSyncExternalStore } from 'react';

const NEVER_CHANGES = () => () => undefined;

export function useHydrated(): boolean {
  return useSyncExternalStore(
    NEVER_CHANGES,
    () => true,
    () => false,
  );
}
