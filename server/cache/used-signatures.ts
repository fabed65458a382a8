/**
 * Hook signatures already used, so a captured call sent again is refused: in Redis for the signature's window
 * (every instance), and in each instance's own record, asked first, which outlives a Redis outage or a Redis
 * that came back empty.
 */
import type { RedisClient } from '../redis/client';
import type { UsedSignature } from './coherence';

/** Where Redis keeps a hook signature as used, for its window (firstUse, and a held purge's on replay). */
export function signatureKey(prefix: string, signature: string): string {
  return `${prefix}:purge:signature:${signature}`;
}

/** This instance's record of used signatures, each until its window ends. */
export class UsedSignatures {
  private readonly usedSignatures = new Map<string, number>();

  has(signature: string): boolean {
    const now = Date.now();
    for (const [seen, until] of this.usedSignatures) if (until < now) this.usedSignatures.delete(seen);
    return this.usedSignatures.has(signature);
  }

  keep(signature: UsedSignature | undefined): void {
    if (!signature || signature.until < Date.now()) return;
    this.usedSignatures.set(signature.value, Math.max(signature.until, this.usedSignatures.get(signature.value) ?? 0));
  }
}

/** A signature used while Redis was away, written there for the rest of its window. */
export async function shareSignature(client: RedisClient | null, prefix: string, signature: UsedSignature): Promise<void> {
  const left = signature.until - Date.now();
  if (!client || left <= 0) return;
  await client.set(signatureKey(prefix, signature.value), '1', 'PX', left, 'NX');
}
