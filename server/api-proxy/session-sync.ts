/**
 * Keeps the server's session in step with what the CMS says through the proxy: a profile answer refreshes the
 * reader's name and avatar (docs/product.md §7: /api/user/profile refreshes the profile), and 'please sign in' (40101) to a
 * call made with the session's token means the CMS ended that token, so the session ends here too. A session
 * store that cannot take the change (a Redis refusing writes) changes nothing for the answer being relayed:
 * the outcome is what the CMS said, the refusal goes to `onStoreRefused`.
 */
import { z } from 'zod';
import type { PublicUser } from '../../shared/app-state';
import type { Envelope } from '../../shared/types/envelope';
import { userinfo } from '../auth/account-client';
import type { Session, Sessions } from '../auth/sessions';
import { StoreUnavailableError } from '../redis/store-unavailable';
import { CODE_NOT_SIGNED_IN } from '../upstream/account-service';

const PROFILE_PATH = '/api/user/profile';
const profileAnswer = z.object({ userinfo });

export type SyncOutcome = { kind: 'kept' } | { kind: 'updated'; user: PublicUser } | { kind: 'ended' };

export async function syncSession(
  sessions: Sessions,
  current: { id: string; session: Session },
  path: string,
  envelope: Envelope<unknown>,
  onStoreRefused: (error: StoreUnavailableError) => void,
): Promise<SyncOutcome> {
  const refused = (error: unknown) => {
    if (!(error instanceof StoreUnavailableError)) throw error;
    onStoreRefused(error);
  };
  if (envelope.code === CODE_NOT_SIGNED_IN) {
    // Ended at the CMS whether or not the store forgets it: the browser is signed out either way.
    await sessions.destroy(current.id).catch(refused);
    return { kind: 'ended' };
  }
  if (path !== PROFILE_PATH || envelope.code !== 0) return { kind: 'kept' };
  const parsed = profileAnswer.safeParse(envelope.data);
  // A profile of another user would be a CMS bug; never let it rename this session.
  if (!parsed.success || parsed.data.userinfo.user_id !== current.session.user.user_id) return { kind: 'kept' };
  // Not stored: the reader cookie still carries the new profile, and the session's copy catches up at a later refresh.
  await sessions.updateUser(current.id, current.session, parsed.data.userinfo).catch(refused);
  return { kind: 'updated', user: parsed.data.userinfo };
}
