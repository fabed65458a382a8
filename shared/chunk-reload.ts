/**
 * A page chunk that fails to load (usually a deploy replaced the hashed files under an open tab) is repaired by
 * loading the page afresh, but at most once per 60 seconds (docs/product.md §4), so a chunk that keeps failing cannot
 * put the tab in a reload loop.
 */
export const CHUNK_RELOAD_KEY = 'portal.chunkReloadAt';
export const CHUNK_RELOAD_WINDOW_MS = 60_000;

/** Whether to reload now, given when the last chunk-error reload happened (ms, or null for never). */
export function shouldReloadForChunkError(lastReloadAt: number | null, now: number): boolean {
  return lastReloadAt === null || !Number.isFinite(lastReloadAt) || now - lastReloadAt >= CHUNK_RELOAD_WINDOW_MS || now < lastReloadAt;
}

/** Browsers word a failed dynamic import differently (Chromium, Firefox, Safari). */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(message);
}
