/** `stats`: what the prefix holds in Redis, hit ratios from running portals, and the policy overrides. */
import { effectivePolicy, readOverrides } from '../../server/cache/runtime-policy';
import { entryStats, hitRatios, knownPrefixes, type Ratios } from '../../server/cache/stats';
import { formatOverrides } from './policy-command';
import { kib, print, type Globals } from './output';
import { withRedis } from './redis';
import { scrape, sleep } from './portals';

export async function statsCommand(globals: Globals, options: { portal: string[]; window?: number; top: number }): Promise<void> {
  const [held, ratios] = await Promise.all([
    withRedis(globals, async (client) => {
      const [entries, overrides] = await Promise.all([entryStats(client, globals.prefix, options.top), readOverrides(client, globals.prefix)]);
      const otherPrefixes = entries.entries === 0 ? (await knownPrefixes(client)).filter((prefix) => prefix !== globals.prefix) : [];
      return { entries, overrides, otherPrefixes };
    }),
    ratiosOf(options),
  ]);
  const { entries, overrides, otherPrefixes } = held;
  const hint =
    otherPrefixes.length > 0 ? `no entries under prefix "${globals.prefix}"; this Redis holds entries of: ${otherPrefixes.join(', ')} (--prefix)` : null;
  print(
    globals,
    'stats',
    { prefix: globals.prefix, entries, ratios, windowSeconds: options.window ?? null, policy: effectivePolicy(overrides), overrides, otherPrefixes },
    () =>
      [
        `prefix ${globals.prefix}: ${entries.entries} entries, ${kib(entries.bytes)}`,
        ...(hint ? [hint] : []),
        ...Object.entries(entries.byKind).map(([kind, b]) => `  ${kind}: ${b.entries} entries, ${kib(b.bytes)}`),
        ...(entries.top.length > 0 ? ['largest keys:', ...entries.top.map((top) => `  ${String(top.bytes).padStart(8)}  ${top.key}`)] : []),
        ratios ? `hit ratios (${options.window ? `last ${options.window} s` : 'since start'}):\n${ratioTable(ratios)}` : 'hit ratios: pass --portal URL',
        `policy overrides: ${formatOverrides(overrides)}`,
      ].join('\n'),
  );
}

async function ratiosOf(options: { portal: string[]; window?: number }): Promise<Ratios | null> {
  if (options.portal.length === 0) return null;
  if (!options.window) return hitRatios(await scrape(options.portal));
  const before = await scrape(options.portal);
  await sleep(options.window * 1000);
  return hitRatios(await scrape(options.portal), before);
}

function ratioTable(ratios: Ratios): string {
  const lines = ['kind  site  hit%    hits   stale  misses  pass'];
  for (const row of ratios.rows) {
    const ratio = row.hitRatio === null ? '   -  ' : `${(row.hitRatio * 100).toFixed(1).padStart(5)}%`;
    lines.push(
      `${row.kind.padEnd(5)} ${row.site.padEnd(5)} ${ratio} ${String(row.hits).padStart(6)} ${String(row.stale).padStart(6)} ${String(row.misses).padStart(7)} ${String(row.pass).padStart(5)}`,
    );
  }
  lines.push(`stale served on upstream error: ${ratios.staleIfError}   upstream errors: ${ratios.upstreamErrors}/${ratios.upstreamCalls} calls`);
  return lines.join('\n');
}
