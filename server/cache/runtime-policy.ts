/**
 * Run-time cache policy: the defaults of policy.ts with operator overrides stored in Redis (`{prefix}:policy`).
 * Every instance reads the overrides at start, on each 'policy' announcement, and every few seconds as a
 * fallback (an announcement can be missed while disconnected), so a change needs no restart. Overrides are
 * validated on the way in and on the way out: a bad document in Redis is ignored (defaults stay), never used.
 */
import type { RedisClient } from '../redis/client';
import { z } from 'zod';
import { announce } from './coherence';
import type { CachePolicy } from './entry';
import { DATA_POLICY, DAY, PAGE_POLICY, pageKindOf, type DataFamily, type PageKind } from './policy';
import type { OutagePolicy } from './tiered-store';

export type { PageKind } from './policy';
export const DATA_FAMILIES = Object.keys(DATA_POLICY) as DataFamily[];
export const PAGE_KINDS = Object.keys(PAGE_POLICY) as PageKind[];

/** Bounds that catch typos (ms for s, an extra zero) rather than express taste. */
const policySchema = z.strictObject({
  ttl: z
    .number()
    .int()
    .min(1, 'ttl must be at least 1 s')
    .max(7 * DAY, 'ttl above 7 days is not a cache, it is a freeze'),
  grace: z
    .number()
    .int()
    .min(0, 'grace cannot be negative')
    .max(7 * DAY, 'grace must be at most 7 days'),
  staleIfError: z
    .number()
    .int()
    .min(0, 'staleIfError cannot be negative')
    .max(30 * DAY, 'staleIfError must be at most 30 days'),
});

const partialPolicy = policySchema.partial();

/** What L1 does through a Redis outage (tiered-store.ts): answer as usual for `window` s, then with short TTLs. */
const outageSchema = z.strictObject({
  window: z.number().int().min(0, 'outage window cannot be negative').max(DAY, 'outage window must be at most 1 day'),
  ttl: z.number().int().min(1, 'outage ttl must be at least 1 s').max(3600, 'outage ttl must be at most 1 hour'),
});

export const overridesSchema = z.strictObject({
  data: z.partialRecord(z.enum(DATA_FAMILIES as [DataFamily, ...DataFamily[]]), partialPolicy).optional(),
  page: z.partialRecord(z.enum(PAGE_KINDS as [PageKind, ...PageKind[]]), partialPolicy).optional(),
  outage: outageSchema.partial().optional(),
});

export type PolicyOverrides = z.infer<typeof overridesSchema>;

export interface EffectivePolicy {
  data: Record<DataFamily, CachePolicy>;
  page: Record<PageKind, CachePolicy>;
  outage: OutagePolicy;
}

/** The outage policy in code; an instance's L1_OUTAGE_SERVE_S and L1_OUTAGE_TTL_S take its place as its defaults. */
export const OUTAGE_POLICY: OutagePolicy = { window: 300, ttl: 30 };

export function policyKey(prefix: string): string {
  return `${prefix}:policy`;
}

export class PolicyInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyInputError';
  }
}

/** Validates overrides; the merged result must be valid too (an override of ttl alone still yields a full policy). */
export function parseOverrides(input: unknown): PolicyOverrides {
  const parsed = overridesSchema.safeParse(input);
  if (!parsed.success) throw new PolicyInputError(parsed.error.issues.map(describeIssue).join('; '));
  return parsed.data;
}

/** `ttl must be at least 1 s (page detail)`: the rule's own words and where, not the validator's notation. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.map(String).join(' ');
  if (issue.code === 'unrecognized_keys') return `unknown ${issue.keys.join(', ')}${where ? ` (${where})` : ''}`;
  if (issue.code === 'invalid_type') return `${where || 'policy'} must be ${issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}`;
  return where ? `${issue.message} (${where})` : issue.message;
}

export function effectivePolicy(overrides: PolicyOverrides, outageDefaults: OutagePolicy = OUTAGE_POLICY): EffectivePolicy {
  const data = Object.fromEntries(DATA_FAMILIES.map((family) => [family, { ...DATA_POLICY[family], ...overrides.data?.[family] }])) as Record<
    DataFamily,
    CachePolicy
  >;
  const page = Object.fromEntries(PAGE_KINDS.map((kind) => [kind, { ...PAGE_POLICY[kind], ...overrides.page?.[kind] }])) as Record<PageKind, CachePolicy>;
  return { data, page, outage: { ...outageDefaults, ...overrides.outage } };
}

/** Merges a change into what is stored (one family or kind at a time from the CLI), validates, writes, announces. */
export async function setOverrides(client: RedisClient, prefix: string, change: unknown): Promise<PolicyOverrides> {
  const parsedChange = parseOverrides(change);
  const current = await readOverrides(client, prefix);
  const data = mergeSection(current.data, parsedChange.data);
  const page = mergeSection(current.page, parsedChange.page);
  const outage = { ...current.outage, ...parsedChange.outage };
  const merged = parseOverrides({
    ...(Object.keys(data).length > 0 ? { data } : {}),
    ...(Object.keys(page).length > 0 ? { page } : {}),
    ...(Object.keys(outage).length > 0 ? { outage } : {}),
  });
  await client.set(policyKey(prefix), JSON.stringify(merged));
  await announce(client, prefix, { kind: 'policy' });
  return merged;
}

export type PolicySection = 'data' | 'page';

/** Drops one family's or kind's override (or some of its fields), leaving the others; announces the change. */
export async function unsetOverride(
  client: RedisClient,
  prefix: string,
  section: PolicySection,
  name: string,
  fields: ReadonlyArray<keyof CachePolicy> = [],
): Promise<{ overrides: PolicyOverrides; removed: boolean }> {
  const current = await readOverrides(client, prefix);
  const entries = { ...(current[section] as Record<string, Partial<CachePolicy>> | undefined) };
  const held = entries[name];
  if (!held) return { overrides: current, removed: false };
  const kept = Object.fromEntries(Object.entries(held).filter(([field]) => fields.length > 0 && !fields.includes(field as keyof CachePolicy)));
  if (Object.keys(kept).length > 0) entries[name] = kept;
  else delete entries[name];
  const next = parseOverrides({ ...current, [section]: entries });
  if (Object.keys(entries).length === 0) delete next[section];
  await client.set(policyKey(prefix), JSON.stringify(next));
  await announce(client, prefix, { kind: 'policy' });
  return { overrides: next, removed: true };
}

/** Drops the outage override (or some of its fields); announces the change. */
export async function unsetOutage(
  client: RedisClient,
  prefix: string,
  fields: ReadonlyArray<keyof OutagePolicy> = [],
): Promise<{ overrides: PolicyOverrides; removed: boolean }> {
  const current = await readOverrides(client, prefix);
  if (!current.outage) return { overrides: current, removed: false };
  const kept = Object.fromEntries(Object.entries(current.outage).filter(([field]) => fields.length > 0 && !fields.includes(field as keyof OutagePolicy)));
  const next: PolicyOverrides = { ...current };
  if (Object.keys(kept).length > 0) next.outage = kept;
  else delete next.outage;
  await client.set(policyKey(prefix), JSON.stringify(parseOverrides(next)));
  await announce(client, prefix, { kind: 'policy' });
  return { overrides: next, removed: true };
}

/** Back to the defaults in code. */
export async function resetOverrides(client: RedisClient, prefix: string): Promise<void> {
  await client.del(policyKey(prefix));
  await announce(client, prefix, { kind: 'policy' });
}

function mergeSection<K extends string>(
  current: Partial<Record<K, Partial<CachePolicy>>> | undefined,
  change: Partial<Record<K, Partial<CachePolicy>>> | undefined,
): Partial<Record<K, Partial<CachePolicy>>> {
  const merged: Partial<Record<K, Partial<CachePolicy>>> = { ...current };
  for (const [name, policy] of Object.entries(change ?? {}) as Array<[K, Partial<CachePolicy>]>) {
    merged[name] = { ...merged[name], ...policy };
  }
  return merged;
}

/** What Redis holds; a document that does not validate reads as no overrides. Throws only when Redis fails. */
export async function readOverrides(client: RedisClient, prefix: string): Promise<PolicyOverrides> {
  const raw = await client.get(policyKey(prefix));
  if (raw === null) return {};
  try {
    return parseOverrides(JSON.parse(raw));
  } catch {
    return {};
  }
}

export interface PolicySource {
  data(family: DataFamily): CachePolicy;
  page(kind: string): CachePolicy;
}

const POLL_MS = 5000;

/** The policy one instance uses: defaults until Redis says otherwise. */
export class RuntimePolicy implements PolicySource {
  private current: EffectivePolicy;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly client: RedisClient | null,
    private readonly prefix: string,
    private readonly onError: (error: unknown) => void = () => undefined,
    /** This instance's outage defaults (L1_OUTAGE_SERVE_S, L1_OUTAGE_TTL_S), until Redis holds an override. */
    private readonly outageDefaults: OutagePolicy = OUTAGE_POLICY,
  ) {
    this.current = effectivePolicy({}, outageDefaults);
  }

  /** Starts polling (Redis only); the first read happens at once. */
  start(): void {
    if (!this.client || this.timer) return;
    // Read as soon as the connection is (again) up, not only at the next poll.
    this.client.on('ready', () => void this.reload());
    void this.reload();
    this.timer = setInterval(() => void this.reload(), POLL_MS);
    this.timer.unref();
  }

  async reload(): Promise<void> {
    if (!this.client || this.client.status !== 'ready') return;
    try {
      this.current = effectivePolicy(await readOverrides(this.client, this.prefix), this.outageDefaults);
    } catch (error) {
      this.onError(error); // Keep the last known policy.
    }
  }

  snapshot(): EffectivePolicy {
    return this.current;
  }

  data(family: DataFamily): CachePolicy {
    return this.current.data[family];
  }

  page(kind: string): CachePolicy {
    return this.current.page[pageKindOf(kind)];
  }

  /** The outage policy in force: the last read from Redis is kept through the outage it governs. */
  outage(): OutagePolicy {
    return this.current.outage;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
