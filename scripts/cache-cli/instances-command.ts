/**
 * `instances`: "is instance B healthy, ready, draining, and what does it run?" For each instance announced in
 * Redis plus any named with --portal: liveness (/healthz), readiness and its checks (/readyz: ready, degraded,
 * draining), the build and L1 bytes it reports on /metrics, and whether its L1 serves unverified (Redis down).
 * Each request is bounded by --timeout; an instance that does not answer, or answers unhealthy or not ready, is
 * named, and the exit code is 5 (output.ts).
 */
import { parsePrometheus, type Sample } from '../../server/cache/stats';
import { CliError, EXIT, errorText, kib, print, table, type Globals } from './output';
import { httpGet, portalTargets, type PortalTarget } from './portals';
import { connect } from './redis';
import type { RedisClient } from '../../server/redis/client';

export interface InstanceReport {
  id: string | null;
  url: string;
  source: PortalTarget['source'];
  host: string | null;
  pid: number | null;
  startedAt: string | null;
  /** ok: /healthz answered 200; otherwise why not (no answer within the timeout, refused, HTTP 500). */
  health: string;
  /** /readyz's status: ready, degraded (serving, something it depends on is down), draining; or why it is unknown. */
  readiness: string;
  draining: boolean | null;
  /** /readyz's checks (redis, upstream, cache…) as it reports them. */
  checks: Record<string, string> | null;
  build: string | null;
  node: string | null;
  l1Bytes: number | null;
  /** True while its L1 answers without the invalidation channel (Redis unreachable). */
  l1Unverified: boolean | null;
  /** Whether it answered fully, is healthy and ready (degraded counts as serving). */
  ok: boolean;
}

export async function instancesCommand(globals: Globals, options: { portal: string[] }): Promise<void> {
  const client = await redisOrNull(globals, options.portal);
  let targets: PortalTarget[];
  try {
    targets = await portalTargets(client, globals.prefix, options.portal);
  } finally {
    client?.disconnect();
  }
  if (targets.length === 0)
    throw new CliError(`no instance announced in Redis under prefix ${globals.prefix}; name a running portal with --portal URL`, EXIT.notFound, {
      instances: [],
    });
  const reports = await Promise.all(targets.map((target) => report(target, globals.timeout)));
  print(globals, 'instances', { prefix: globals.prefix, instances: reports }, () => humanTable(reports));
  if (reports.some((instance) => !instance.ok)) process.exitCode = EXIT.partial;
}

/** Without Redis, --portal alone still gets answers (said on stderr); without either there is nothing to ask. */
async function redisOrNull(globals: Globals, portals: string[]): Promise<RedisClient | null> {
  try {
    return await connect(globals.redis, globals.timeout);
  } catch (error) {
    if (portals.length === 0 || !(error instanceof CliError)) throw error;
    process.stderr.write(`portal-cache: ${error.message}; asking only the --portal instances\n`);
    return null;
  }
}

async function report(target: PortalTarget, timeoutSeconds: number): Promise<InstanceReport> {
  const [health, ready, metrics] = await Promise.all(
    ['/healthz', '/readyz', '/metrics'].map((path) => httpGet(new URL(path, target.url).href, timeoutSeconds).catch((error: unknown) => errorText(error))),
  );
  const readiness = readinessOf(ready!);
  const samples = typeof metrics === 'string' || metrics!.status !== 200 ? null : parsePrometheus(metrics!.text);
  const info = samples?.find((sample) => sample.name === 'portal_build_info')?.labels;
  const healthText = typeof health === 'string' ? health : health!.status === 200 ? 'ok' : `HTTP ${health!.status}`;
  const a = target.announced;
  return {
    id: a?.id ?? null,
    url: target.url,
    source: target.source,
    host: a?.host ?? null,
    pid: a?.pid ?? null,
    startedAt: a?.startedAt ?? null,
    health: healthText,
    ...readiness,
    build: info?.build ?? a?.build ?? null,
    node: info?.node ?? null,
    l1Bytes: gauge(samples, 'portal_cache_l1_bytes'),
    l1Unverified: samples ? gauge(samples, 'portal_cache_l1_unverified') === 1 : null,
    ok: healthText === 'ok' && (readiness.readiness === 'ready' || readiness.readiness === 'degraded') && samples !== null,
  };
}

function readinessOf(answer: string | { status: number; text: string }): Pick<InstanceReport, 'readiness' | 'draining' | 'checks'> {
  if (typeof answer === 'string') return { readiness: answer, draining: null, checks: null };
  let body: { status?: unknown; checks?: unknown } = {};
  try {
    body = JSON.parse(answer.text) as typeof body;
  } catch {
    // Not the portal's JSON (a proxy's error page): the status code is what there is.
  }
  const status = typeof body.status === 'string' ? body.status : `HTTP ${answer.status}`;
  const checks =
    body.checks && typeof body.checks === 'object'
      ? Object.fromEntries(Object.entries(body.checks as Record<string, unknown>).map(([name, value]) => [name, String(value)]))
      : null;
  return { readiness: status, draining: status === 'draining', checks };
}

function gauge(samples: Sample[] | null, name: string): number | null {
  return samples?.find((sample) => sample.name === name)?.value ?? null;
}

function humanTable(reports: InstanceReport[]): string {
  const rows = [['instance', 'url', 'health', 'readiness', 'checks', 'build', 'L1', 'started']];
  for (const r of reports) {
    const checks = r.checks
      ? Object.entries(r.checks)
          .map(([name, value]) => `${name} ${value}`)
          .join(', ')
      : '-';
    const l1 = r.l1Bytes === null ? '-' : `${kib(r.l1Bytes)}${r.l1Unverified ? ' (unverified)' : ''}`;
    rows.push([r.id?.slice(0, 8) ?? `[${r.source}]`, r.url, r.health, r.readiness, checks, r.build ?? '-', l1, r.startedAt ?? '-']);
  }
  const bad = reports.filter((r) => !r.ok);
  const summary =
    bad.length === 0 ? `${reports.length} instance${reports.length === 1 ? '' : 's'}, all healthy and ready` : `not ok: ${bad.map((r) => r.url).join(', ')}`;
  return `${table(rows, [6])}\n${summary}`;
}
