/**
 * `stats`: what the prefix holds in Redis, hit ratios from running portals (every instance announced in Redis
 * plus any named with --portal) and the policy overrides. A portal that does not answer within --timeout is
 * named under `failed` and left out of the ratios (exit code 5), never waited for.
 */
import { effectivePolicy, readOverrides } from '../../server/cache/runtime-policy';
import { entryStats, hitRatios, knownPrefixes, type Ratios } from '../../server/cache/stats';
import { formatOverrides } from './policy-command';
import { EXIT, kib, print, table, type Globals } from './output';
import { withRedis } from './redis';
import { allSamples, portalTargets, scrape, sleep, windowed, type FailedPortal } from './portals';

export async function statsCommand(globals: Globals, options: { portal: string[]; window?: number; top: number }): Promise<void> {
  const held = await withRedis(globals, async (client) => {
    const [entries, overrides, targets] = await Promise.all([
      entryStats(client, globals.prefix, options.top),
      readOverrides(client, globals.prefix),
      portalTargets(client, globals.prefix, options.portal),
    ]);
    const otherPrefixes = entries.entries === 0 ? (await knownPrefixes(client)).filter((prefix) => prefix !== globals.prefix) : [];
    return { entries, overrides, otherPrefixes, portals: targets.map((target) => target.url) };
  });
  const { entries, overrides, otherPrefixes, portals } = held;
  const { ratios, answered, failed } = await ratiosOf(portals, options.window, globals.timeout);
  const hint =
    otherPrefixes.length > 0 ? `no entries under prefix "${globals.prefix}"; this Redis holds entries of: ${otherPrefixes.join(', ')} (--prefix)` : null;
  print(
    globals,
    'stats',
    {
      prefix: globals.prefix,
      entries,
      ratios,
      windowSeconds: options.window ?? null,
      portals: answered,
      failed,
      policy: effectivePolicy(overrides),
      overrides,
      otherPrefixes,
    },
    () =>
      [
        `prefix ${globals.prefix}: ${entries.entries} entries, ${kib(entries.bytes)}`,
        ...(hint ? [hint] : []),
        ...Object.entries(entries.byKind).map(([kind, b]) => `  ${kind}: ${b.entries} entries, ${kib(b.bytes)}`),
        ...(entries.top.length > 0 ? ['largest keys:', ...entries.top.map((top) => `  ${String(top.bytes).padStart(8)}  ${top.key}`)] : []),
        ratiosText(ratios, answered, options.window),
        ...failed.map((portal) => `no answer from ${portal.url}, left out: ${portal.error}`),
        `policy overrides: ${formatOverrides(overrides)}`,
      ].join('\n'),
  );
  if (failed.length > 0) process.exitCode = EXIT.partial;
}

async function ratiosOf(
  portals: string[],
  window: number | undefined,
  timeoutSeconds: number,
): Promise<{ ratios: Ratios | null; answered: string[]; failed: FailedPortal[] }> {
  if (portals.length === 0) return { ratios: null, answered: [], failed: [] };
  const first = await scrape(portals, timeoutSeconds);
  if (!window) return { ratios: hitRatios(allSamples(first)), answered: [...first.byPortal.keys()], failed: first.failed };
  await sleep(window * 1000);
  const second = await scrape(portals, timeoutSeconds);
  const { after, before } = windowed(second, first);
  const answered = [...second.byPortal.keys()].filter((url) => first.byPortal.has(url));
  const failed = portals
    .filter((url) => !answered.includes(url))
    .map((url) => second.failed.find((f) => f.url === url) ?? first.failed.find((f) => f.url === url)!);
  return { ratios: hitRatios(after, before), answered, failed };
}

function ratiosText(ratios: Ratios | null, answered: string[], window: number | undefined): string {
  if (!ratios) return 'hit ratios: no instance announced in Redis under this prefix; name a running portal with --portal URL';
  const over = window ? `last ${window} s` : 'since start';
  return `hit ratios (${over}, ${answered.length} instance${answered.length === 1 ? '' : 's'}):\n${ratioTable(ratios)}`;
}

function ratioTable(ratios: Ratios): string {
  const rows = [['kind', 'site', 'hit%', 'hits', 'stale', 'misses', 'pass']];
  for (const row of ratios.rows) {
    const ratio = row.hitRatio === null ? '-' : `${(row.hitRatio * 100).toFixed(1)}%`;
    rows.push([row.kind, row.site, ratio, String(row.hits), String(row.stale), String(row.misses), String(row.pass)]);
  }
  return [
    table(rows, [2, 3, 4, 5, 6]),
    `stale served on upstream error: ${ratios.staleIfError}   upstream errors: ${ratios.upstreamErrors}/${ratios.upstreamCalls} calls`,
  ].join('\n');
}
