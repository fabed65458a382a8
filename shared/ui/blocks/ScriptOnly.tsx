/**
 * A control that only works with script (a toggle kept in localStorage, a call to the accounts API, a dialog):
 * not rendered until the page has hydrated, `fallback` (a plain text, say) before, so no reader without script
 * meets a button that does nothing (issue 29).
 */
import type { ReactNode } from 'react';
import { useHydrated } from '../lib/use-hydrated';

export function ScriptOnly({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return useHydrated() ? children : fallback;
}
