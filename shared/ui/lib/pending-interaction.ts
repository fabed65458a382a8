/**
 * The like, collect or subscribe a visitor clicked before signing in (docs/product.md §5: the click raises the sign-in
 * dialog). It is kept in this tab's sessionStorage for the sign-in round trip (WeChat and back), and done once
 * the page it was clicked on is back, signed in. Read once: whatever the outcome, it is removed.
 */
import { encodePending, groupHolds, PENDING_KEY, readPending } from '../../interactions';
import type { InteractionGroup, InteractionTarget } from '../../types/interactions';
import { readSessionStorage, removeSessionStorage, writeSessionStorage } from './storage';

export function rememberPending(target: InteractionTarget, path: string): void {
  writeSessionStorage(PENDING_KEY, encodePending(target, path, Date.now()));
}

export function forgetPending(): void {
  removeSessionStorage(PENDING_KEY);
}

/**
 * The pending target if it belongs to this group on this page; a stale or malformed entry is dropped. It stays
 * stored until the caller acts on it (`forgetPending`): a render that asks and is replaced before it can act (its
 * effect cleaned up while the reader's states were loading, as on a slow machine) leaves it to the next one.
 */
export function pendingFor(group: InteractionGroup, path: string): InteractionTarget | null {
  const raw = readSessionStorage(PENDING_KEY);
  if (raw === null) return null;
  const pending = readPending(raw, path, Date.now());
  if (!pending) {
    forgetPending();
    return null;
  }
  // Another group on the page (another kind, another list) may hold it: leave it for that one.
  return groupHolds(group, pending.target) ? pending.target : null;
}
