/**
 * What ships for monitoring: deploy/prometheus/portal-rules.yml passes `promtool check rules` and its unit tests
 * (`promtool test rules`: the alerts fire when they should), and deploy/grafana-dashboard.json is a dashboard of
 * the expected shape whose every query, and every rule, names only metrics a live portal's /metrics exposes (or
 * a recording rule the rules file defines), so a renamed metric fails here instead of leaving an empty panel.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { parse } from 'yaml';
import { z } from 'zod';
import { HOME_CATID } from '../../shared/constants';
import { startTestPortal, type TestPortal } from '../support/portal';
import { describeWithPromtool, describeWithRedis, testRedisUrl } from '../support/requirements';
import { firstHomeArticle } from '../support/upstream-data';
import { deleteKeys, withRedis } from '../server/cache/redis-helpers';

const ROOT = path.resolve(__dirname, '../..');
const RULES = path.join(ROOT, 'deploy/prometheus/portal-rules.yml');
const RULE_TESTS = path.join(ROOT, 'deploy/prometheus/portal-rules.test.yml');
const DASHBOARD = path.join(ROOT, 'deploy/grafana-dashboard.json');

function promtool(...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('promtool', args, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr });
    });
  });
}

const rulesFile = z.object({
  groups: z.array(
    z.object({
      name: z.string(),
      rules: z.array(z.object({ record: z.string().optional(), alert: z.string().optional(), expr: z.string().min(1) })),
    }),
  ),
});

const dashboard = z.object({
  uid: z.string().min(1),
  title: z.string().min(1),
  schemaVersion: z.number().int(),
  templating: z.object({ list: z.array(z.object({ name: z.string(), type: z.string() })) }),
  panels: z
    .array(
      z.object({
        id: z.number().int(),
        type: z.enum(['timeseries', 'stat', 'table', 'gauge']),
        title: z.string().min(1),
        datasource: z.object({ type: z.literal('prometheus'), uid: z.string() }),
        gridPos: z.object({
          h: z.number().int().positive(),
          w: z.number().int().min(1).max(24),
          x: z.number().int().min(0).max(23),
          y: z.number().int().min(0),
        }),
        targets: z.array(z.object({ refId: z.string(), expr: z.string().min(1), legendFormat: z.string().optional() })).min(1),
      }),
    )
    .min(1),
});

const rules = rulesFile.parse(parse(readFileSync(RULES, 'utf8')));
const recorded = new Set(rules.groups.flatMap((group) => group.rules.flatMap((rule) => (rule.record ? [rule.record] : []))));

/**
 * Metric names an expression reads: portal_* series, portal:* recording rules and Prometheus's own `up` of each
 * target (label values excluded).
 */
function metricNames(expr: string): string[] {
  const withoutStrings = expr.replace(/"[^"]*"/g, '""');
  return [...new Set([...withoutStrings.matchAll(/\bportal[_:][a-zA-Z0-9_:]*|\bup(?=\{)/g)].map((match) => match[0]))];
}

/** Series Prometheus itself writes for every scrape target, so no /metrics shows them. */
const SCRAPE_SERIES = ['up'];

/** Every series name /metrics can show: sample names, and for each histogram its _bucket/_sum/_count. */
function exposedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) {
      names.add(type[1]!);
      if (type[2] === 'histogram' || type[2] === 'summary') for (const suffix of ['_bucket', '_sum', '_count']) names.add(type[1]! + suffix);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/.exec(line);
    if (sample) names.add(sample[1]!);
  }
  return names;
}

describeWithPromtool()('deploy/prometheus/portal-rules.yml', () => {
  it('passes promtool check rules, and a broken copy fails it (so the check can fail)', async () => {
    const good = await promtool('check', 'rules', RULES);
    expect(good.output).toMatch(/SUCCESS: \d+ rules found/);
    expect(good.code).toBe(0);
    const broken = path.join(mkdtempSync(path.join(tmpdir(), 'rules-')), 'broken.yml');
    writeFileSync(broken, readFileSync(RULES, 'utf8').replace('expr: portal_redis_up == 0', 'expr: portal_redis_up == == 0'));
    const bad = await promtool('check', 'rules', broken);
    expect(bad.code).not.toBe(0);
  });

  it('fires its alerts on the series that should fire them (promtool test rules)', async () => {
    const result = await promtool('test', 'rules', RULE_TESTS);
    expect(result.output).toMatch(/SUCCESS/);
    expect(result.code).toBe(0);
  });

  it('tests every alert both ways: a case in which it fires and one in which it does not', () => {
    const tests = z
      .object({
        tests: z.array(
          z.object({
            alert_rule_test: z.array(z.object({ alertname: z.string(), exp_alerts: z.array(z.unknown()).optional() })).optional(),
          }),
        ),
      })
      .parse(parse(readFileSync(RULE_TESTS, 'utf8')));
    const cases = tests.tests.flatMap((test) => test.alert_rule_test ?? []);
    const alerts = rules.groups.flatMap((group) => group.rules.flatMap((rule) => (rule.alert ? [rule.alert] : [])));
    const missing = alerts.flatMap((alert) => {
      const mine = cases.filter((test) => test.alertname === alert);
      return [
        ...(mine.some((test) => (test.exp_alerts ?? []).length > 0) ? [] : [`${alert}: no case in which it fires`]),
        ...(mine.some((test) => (test.exp_alerts ?? []).length === 0) ? [] : [`${alert}: no case in which it stays silent`]),
      ];
    });
    expect(missing).toEqual([]);
  });

  it('alerts on Redis down, the channel down, event-loop lag, 5xx, upstream errors, stale served and hit ratio', () => {
    const alerts = rules.groups.flatMap((group) => group.rules.flatMap((rule) => (rule.alert ? [rule.alert] : [])));
    expect(alerts).toEqual(
      expect.arrayContaining([
        'PortalRedisDown',
        'PortalInvalidationChannelDown',
        'PortalEventLoopLag',
        'PortalHigh5xx',
        'PortalUpstreamErrors',
        'PortalServingStale',
        'PortalPageHitRatioLow',
        'PortalTargetDown',
        'PortalRedisMemoryHigh',
        'PortalRedisEvicting',
        'PortalL1Pressure',
        'PortalLockWaitsSlow',
      ]),
    );
    expect([...recorded]).toEqual(
      expect.arrayContaining(['portal:cache_hit_ratio:rate5m', 'portal:upstream_error_ratio:rate5m', 'portal:http_5xx_ratio:rate5m']),
    );
  });
});

describeWithRedis()('deploy/grafana-dashboard.json and the rules against a live /metrics', () => {
  let t: TestPortal;
  let exposed: Set<string>;
  beforeAll(async () => {
    t = await startTestPortal({ redisUrl: testRedisUrl() });
    const raw = await firstHomeArticle(t.upstream.url, HOME_CATID);
    for (const page of ['/', `/detail/${raw.catid}/${raw.id}`, `/detail/${raw.catid}/${raw.id}`, '/no/such/page']) await request(t.url).get(page);
    exposed = exposedNames((await request(t.url).get('/metrics')).text);
    for (const name of SCRAPE_SERIES) exposed.add(name);
  });
  afterAll(async () => {
    await deleteKeys(testRedisUrl(), t.cachePrefix);
    await t.close();
  });

  it('is a dashboard of the expected shape with unique panel ids', () => {
    const parsed = dashboard.parse(JSON.parse(readFileSync(DASHBOARD, 'utf8')));
    const ids = parsed.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(parsed.templating.list.map((variable) => variable.name)).toEqual(expect.arrayContaining(['datasource', 'instance', 'site']));
  });

  it('queries only metrics /metrics exposes or the rules record', () => {
    const parsed = dashboard.parse(JSON.parse(readFileSync(DASHBOARD, 'utf8')));
    const unknown: string[] = [];
    for (const panel of parsed.panels) {
      for (const target of panel.targets) {
        const names = metricNames(target.expr);
        expect([panel.title, names.length > 0]).toEqual([panel.title, true]);
        for (const name of names) if (!exposed.has(name) && !recorded.has(name)) unknown.push(`${panel.title}: ${name}`);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('has rules that read only metrics /metrics exposes or other rules record', () => {
    const unknown = rules.groups
      .flatMap((group) => group.rules)
      .flatMap((rule) =>
        metricNames(rule.expr)
          .filter((name) => !exposed.has(name) && !recorded.has(name))
          .map((name) => `${rule.record ?? rule.alert}: ${name}`),
      );
    expect(unknown).toEqual([]);
  });

  it('reports the cache Redis’s own memory figures and L1’s capacity, as Redis and the config say', async () => {
    const text = (await request(t.url).get('/metrics')).text;
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
    const info = await withRedis(testRedisUrl(), async (client) => ({ memory: await client.info('memory'), stats: await client.info('stats') }));
    const field = (section: string, name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(section)?.[1]);
    expect(value('portal_redis_memory_used_bytes')).toBeGreaterThan(0);
    expect(value('portal_redis_memory_max_bytes')).toBe(field(info.memory, 'maxmemory'));
    expect(value('portal_redis_evicted_keys_total')).toBeLessThanOrEqual(field(info.stats, 'evicted_keys'));
    expect(value('portal_cache_l1_max_bytes')).toBe(256 * 1024 * 1024); // L1_CACHE_MAX_MB's default
    expect(value('portal_cache_l1_evictions_total')).toBe(0);
  });

  it('would notice a metric that does not exist (the check can fail)', () => {
    expect(exposed.has('portal_http_requests_total')).toBe(true);
    expect(exposed.has('portal_render_duration_seconds_bucket')).toBe(true);
    expect(exposed.has('portal_no_such_metric_total')).toBe(false);
  });
});
