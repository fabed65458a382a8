import { CHUNK_RELOAD_WINDOW_MS, isChunkLoadError, shouldReloadForChunkError } from '../../shared/chunk-reload';

describe('chunk-error reload guard', () => {
  it('reloads the first time and again only after 60 s', () => {
    const now = 1_000_000;
    expect(shouldReloadForChunkError(null, now)).toBe(true);
    expect(shouldReloadForChunkError(now - 1000, now)).toBe(false);
    expect(shouldReloadForChunkError(now - CHUNK_RELOAD_WINDOW_MS + 1, now)).toBe(false);
    expect(shouldReloadForChunkError(now - CHUNK_RELOAD_WINDOW_MS, now)).toBe(true);
    expect(shouldReloadForChunkError(Number.NaN, now)).toBe(true);
  });

  it('knows the browsers’ wording of a failed dynamic import', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('page data 500'))).toBe(false);
  });
});
