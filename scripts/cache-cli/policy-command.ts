/** `policy get|set|unset|reset`: TTL, grace and stale-if-error per call family and page kind, without restarts. */
import type { CachePolicy } from '../../server/cache/entry';
import {
  effectivePolicy,
  readOverrides,
  resetOverrides,
  setOverrides,
  unsetOutage,
  unsetOverride,
  type PolicyOverrides,
  type PolicySection,
} from '../../server/cache/runtime-policy';
import { CliError, EXIT, formatDuration, parseDuration, print, type Globals } from './output';
import { audit } from './audit';
import { withRedis } from './redis';

const DAY = 86_400;
/** The bounds runtime-policy enforces, checked here first so the operator reads them in option terms. */
const FIELDS = [
  { field: 'ttl', option: '--ttl', min: 1, max: 7 * DAY },
  { field: 'grace', option: '--grace', min: 0, max: 7 * DAY },
  { field: 'staleIfError', option: '--stale-if-error', min: 0, max: 30 * DAY },
] as const satisfies ReadonlyArray<{ field: keyof CachePolicy; option: string; min: number; max: number }>;

export interface PolicyTarget {
  data?: string;
  page?: string;
}

export interface PolicySetOptions extends PolicyTarget {
  ttl?: string;
  grace?: string;
  staleIfError?: string;
  outageWindow?: string;
  outageTtl?: string;
}

/** The outage policy's bounds (runtime-policy.ts), in option terms. */
const OUTAGE_FIELDS = [
  { field: 'window', option: '--outage-window', min: 0, max: DAY },
  { field: 'ttl', option: '--outage-ttl', min: 1, max: 3600 },
] as const;

function seconds(option: string, raw: string, min: number, max: number): number {
  const parsed = parseDuration(raw);
  if (parsed === null) throw new CliError(`${option} "${raw}" is not a duration (e.g. 90, 90s, 10m, 1h, 2d)`, EXIT.usage);
  if (parsed < min || parsed > max)
    throw new CliError(`${option} must be from ${formatDuration(min)} to ${formatDuration(max)}, not ${formatDuration(parsed)}`, EXIT.usage);
  return parsed;
}

/** `--outage-window 10m --outage-ttl 30s`: what L1 does through a Redis outage; null when neither is given. */
function outageOf(options: PolicySetOptions): { window?: number; ttl?: number } | null {
  const raw = { window: options.outageWindow, ttl: options.outageTtl };
  if (raw.window === undefined && raw.ttl === undefined) return null;
  if (options.data !== undefined || options.page !== undefined || options.ttl || options.grace || options.staleIfError)
    throw new CliError('--outage-window / --outage-ttl go alone: not with --data, --page, --ttl, --grace or --stale-if-error', EXIT.usage);
  const change: { window?: number; ttl?: number } = {};
  for (const { field, option, min, max } of OUTAGE_FIELDS) if (raw[field] !== undefined) change[field] = seconds(option, raw[field], min, max);
  return change;
}

function targetOf(options: PolicyTarget): { section: PolicySection; name: string } {
  if ((options.data === undefined) === (options.page === undefined)) throw new CliError('name exactly one of --data <family> or --page <kind>', EXIT.usage);
  return options.data !== undefined ? { section: 'data', name: options.data } : { section: 'page', name: options.page! };
}

function fieldsOf(options: PolicySetOptions): Partial<CachePolicy> {
  const fields: Partial<CachePolicy> = {};
  for (const { field, option, min, max } of FIELDS) {
    const raw = options[field];
    if (raw === undefined) continue;
    const seconds = parseDuration(raw);
    if (seconds === null) throw new CliError(`${option} "${raw}" is not a duration (e.g. 90, 90s, 10m, 1h, 2d)`, EXIT.usage);
    if (seconds < min || seconds > max)
      throw new CliError(`${option} must be from ${formatDuration(min)} to ${formatDuration(max)}, not ${formatDuration(seconds)}`, EXIT.usage);
    fields[field] = seconds;
  }
  if (Object.keys(fields).length === 0) throw new CliError('give at least one of --ttl, --grace, --stale-if-error', EXIT.usage);
  return fields;
}

export async function policyGet(globals: Globals): Promise<void> {
  const overrides = await withRedis(globals, (client) => readOverrides(client, globals.prefix));
  print(globals, 'policy get', { policy: effectivePolicy(overrides), overrides }, () => policyTable(overrides));
}

export async function policySet(globals: Globals, options: PolicySetOptions): Promise<void> {
  const outage = outageOf(options);
  if (outage) return outageSet(globals, outage);
  const { section, name } = targetOf(options);
  const change = { [section]: { [name]: fieldsOf(options) } };
  const overrides = await withRedis(globals, async (client) => {
    const next = await setOverrides(client, globals.prefix, change);
    await audit(client, globals.prefix, `policy set --${section} ${name} ${describeFields(change[section]![name]!)}`, 1);
    return next;
  });
  print(
    globals,
    'policy set',
    { overrides, policy: effectivePolicy(overrides) },
    () => `policy of ${section} ${name} updated; every instance applies it within seconds\n${policyTable(overrides)}`,
  );
}

async function outageSet(globals: Globals, change: { window?: number; ttl?: number }): Promise<void> {
  const overrides = await withRedis(globals, async (client) => {
    const next = await setOverrides(client, globals.prefix, { outage: change });
    await audit(client, globals.prefix, `policy set --outage ${describeFields(change)}`, 1);
    return next;
  });
  print(
    globals,
    'policy set',
    { overrides, policy: effectivePolicy(overrides) },
    () => `outage policy updated; every instance applies it within seconds (and keeps it through the outage)\n${policyTable(overrides)}`,
  );
}

export async function policyUnset(globals: Globals, options: PolicyTarget & { field?: string[]; outage?: boolean }): Promise<void> {
  if (options.outage) return outageUnset(globals, options);
  const { section, name } = targetOf(options);
  const fields = (options.field ?? []).map(fieldName);
  const { overrides, removed } = await withRedis(globals, async (client) => {
    const outcome = await unsetOverride(client, globals.prefix, section, name, fields);
    if (outcome.removed) await audit(client, globals.prefix, `policy unset --${section} ${name}${fields.map((field) => ` --field ${field}`).join('')}`, 1);
    return outcome;
  });
  if (!removed) throw new CliError(`${section} ${name} has no override to remove`, EXIT.notFound, { removed: false, overrides });
  print(
    globals,
    'policy unset',
    { removed, overrides, policy: effectivePolicy(overrides) },
    () => `override of ${section} ${name} removed\n${policyTable(overrides)}`,
  );
}

async function outageUnset(globals: Globals, options: PolicyTarget & { field?: string[] }): Promise<void> {
  if (options.data !== undefined || options.page !== undefined) throw new CliError('--outage goes alone: not with --data or --page', EXIT.usage);
  const fields = (options.field ?? []).map((field) => {
    if (field !== 'window' && field !== 'ttl') throw new CliError(`--field "${field}" is not one of window, ttl (with --outage)`, EXIT.usage);
    return field;
  });
  const { overrides, removed } = await withRedis(globals, async (client) => {
    const outcome = await unsetOutage(client, globals.prefix, fields);
    if (outcome.removed) await audit(client, globals.prefix, `policy unset --outage${fields.map((field) => ` --field ${field}`).join('')}`, 1);
    return outcome;
  });
  if (!removed) throw new CliError('the outage policy has no override to remove', EXIT.notFound, { removed: false, overrides });
  print(globals, 'policy unset', { removed, overrides, policy: effectivePolicy(overrides) }, () => `outage override removed\n${policyTable(overrides)}`);
}

export async function policyReset(globals: Globals): Promise<void> {
  await withRedis(globals, async (client) => {
    await resetOverrides(client, globals.prefix);
    await audit(client, globals.prefix, 'policy reset', 0);
  });
  print(globals, 'policy reset', { reset: true }, () => 'policy reset to the defaults in code');
}

function describeFields(fields: Partial<CachePolicy> | { window?: number; ttl?: number }): string {
  return Object.entries(fields)
    .map(([field, seconds]) => `${field}=${formatDuration(seconds as number)}`)
    .join(' ');
}

function fieldName(option: string): keyof CachePolicy {
  const found = FIELDS.find((candidate) => candidate.option === `--${option.replace(/^--/, '')}` || candidate.field === option);
  if (!found) throw new CliError(`--field "${option}" is not one of ttl, grace, stale-if-error`, EXIT.usage);
  return found.field;
}

/** The policy in force, `*` marking each value an override sets. */
export function policyTable(overrides: PolicyOverrides): string {
  const policy = effectivePolicy(overrides);
  const cell = (value: number, overridden: boolean) => `${formatDuration(value)}${overridden ? '*' : ''}`.padStart(9);
  const rows = (section: PolicySection, table: Record<string, CachePolicy>) =>
    Object.entries(table).map(([name, values]) => {
      const set = (overrides[section] as Record<string, Partial<CachePolicy>> | undefined)?.[name] ?? {};
      return `  ${name.padEnd(16)}${cell(values.ttl, set.ttl !== undefined)}${cell(values.grace, set.grace !== undefined)}${cell(values.staleIfError ?? 0, set.staleIfError !== undefined)}`;
    });
  return [
    `${'data (call family)'.padEnd(18)}${'ttl'.padStart(9)}${'grace'.padStart(9)}${'if-error'.padStart(9)}`,
    ...rows('data', policy.data),
    'page (kind)',
    ...rows('page', policy.page),
    `outage (Redis down)${`window ${formatDuration(policy.outage.window)}${overrides.outage?.window !== undefined ? '*' : ''}`.padStart(18)}${`ttl ${formatDuration(policy.outage.ttl)}${overrides.outage?.ttl !== undefined ? '*' : ''}`.padStart(10)}  (unset: each instance's L1_OUTAGE_SERVE_S / L1_OUTAGE_TTL_S)`,
    `* = override (${formatOverrides(overrides)}); \`policy unset\` removes one, \`policy reset\` all`,
  ].join('\n');
}

export function formatOverrides(overrides: PolicyOverrides): string {
  const parts: string[] = [];
  for (const section of ['data', 'page'] as const) {
    for (const [name, values] of Object.entries((overrides[section] ?? {}) as Record<string, Partial<CachePolicy>>)) {
      const set = Object.entries(values).map(([field, seconds]) => `${field} ${formatDuration(seconds as number)}`);
      parts.push(`${section} ${name}: ${set.join(', ')}`);
    }
  }
  if (overrides.outage)
    parts.push(
      `outage: ${Object.entries(overrides.outage)
        .map(([field, value]) => `${field} ${formatDuration(value)}`)
        .join(', ')}`,
    );
  return parts.length === 0 ? 'none' : parts.join('; ');
}
