/**
 * Sessions and pending sign-ins over a SecretStore. A session holds the reader's public profile and the CMS
 * token; the token never leaves the server (the proxy adds it upstream). A pending sign-in maps the random state
 * sent to WeChat to the validated return address, and is taken once, so a replayed callback finds nothing.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { PublicUser } from '../../shared/app-state';
import type { SecretStore } from './secret-store';

export interface Session {
  user: PublicUser;
  token: string;
  createdAt: number;
}

const publicUser = z.object({
  user_id: z.number().int().positive(),
  nickname: z.string().max(200),
  avatar: z.string().max(2048),
});
const sessionSchema = z.object({ user: publicUser, token: z.string().min(1).max(512), createdAt: z.number() });
const pendingSchema = z.object({ returnTo: z.string().max(4096) });

/** WeChat's page waits for a scan; ten minutes is plenty and keeps stale states from piling up. */
export const LOGIN_STATE_TTL_SECONDS = 600;
/** 64 characters, as docs/product.md §7 asks of the state. */
const STATE_BYTES = 32;

export function randomSecret(): string {
  return randomBytes(STATE_BYTES).toString('hex');
}

function parse<T>(schema: z.ZodType<T>, raw: string | null): T | null {
  if (raw === null) return null;
  try {
    const result = schema.safeParse(JSON.parse(raw));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

export class Sessions {
  constructor(
    private readonly sessions: SecretStore,
    private readonly pending: SecretStore,
    private readonly ttlSeconds: number,
  ) {}

  /** A new random 64-character state bound to where the reader returns. */
  async startLogin(returnTo: string): Promise<string> {
    const state = randomSecret();
    await this.pending.put(state, JSON.stringify({ returnTo }), LOGIN_STATE_TTL_SECONDS);
    return state;
  }

  /** The return address of a pending sign-in, consumed: null when unknown, expired or already used. */
  async finishLogin(state: string): Promise<string | null> {
    return parse(pendingSchema, await this.pending.take(state))?.returnTo ?? null;
  }

  async create(user: PublicUser, token: string): Promise<string> {
    const id = randomSecret();
    const session: Session = { user, token, createdAt: Date.now() };
    await this.sessions.put(id, JSON.stringify(session), this.ttlSeconds);
    return id;
  }

  /** A session that does not validate (an old format, a tampered store) counts as none. */
  async read(id: string): Promise<Session | null> {
    return parse(sessionSchema, await this.sessions.get(id));
  }

  /** The CMS answered a newer profile (/api/user/profile through the proxy): the header shows it from now on. */
  async updateUser(id: string, session: Session, user: PublicUser): Promise<void> {
    const updated: Session = { ...session, user };
    await this.sessions.put(id, JSON.stringify(updated), this.ttlSeconds);
  }

  destroy(id: string): Promise<void> {
    return this.sessions.delete(id);
  }
}
