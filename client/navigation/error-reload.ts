/**
 * Applies the reload rule of shared/chunk-reload.ts with the tab's sessionStorage as its memory. Every error path
 * of the client that falls back to a full page load goes through here, so none can reload more than once a minute.
 */
import { CHUNK_RELOAD_KEY, shouldReloadForChunkError } from '../../shared/chunk-reload';

function lastReload(): number | null {
  try {
    const raw = window.sessionStorage.getItem(CHUNK_RELOAD_KEY);
    return raw === null ? null : Number(raw);
  } catch {
    return null;
  }
}

/** Loads `path` afresh unless an error reload happened within the last minute; returns whether it did. */
export function reloadAfterError(path: string): boolean {
  const now = Date.now();
  if (!shouldReloadForChunkError(lastReload(), now)) return false;
  try {
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    // Without storage the guard cannot remember; not reloading is the safe side.
    return false;
  }
  window.location.assign(path);
  return true;
}
