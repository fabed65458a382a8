/**
 * Browser storage that never throws: storage can be disabled, full, or absent (server render). A reader without
 * it keeps a setting for this page only, and a pending action is simply not resumed after sign-in.
 */
type Area = 'localStorage' | 'sessionStorage';

function guarded<T>(area: Area, fallback: T, act: (storage: Storage) => T): T {
  try {
    return typeof window === 'undefined' ? fallback : act(window[area]);
  } catch {
    return fallback;
  }
}

export function readStorage(key: string): string | null {
  return guarded('localStorage', null, (storage) => storage.getItem(key));
}

export function writeStorage(key: string, value: string): void {
  guarded('localStorage', undefined, (storage) => storage.setItem(key, value));
}

/** sessionStorage: this tab only. */
export function readSessionStorage(key: string): string | null {
  return guarded('sessionStorage', null, (storage) => storage.getItem(key));
}

export function writeSessionStorage(key: string, value: string): void {
  guarded('sessionStorage', undefined, (storage) => storage.setItem(key, value));
}

export function removeSessionStorage(key: string): void {
  guarded('sessionStorage', undefined, (storage) => storage.removeItem(key));
}
