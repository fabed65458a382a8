/**
 * A real Prometheus (Debian's `prometheus`) beside the day's stack, as an operator runs it: it scrapes every portal
 * under the job name the shipped rules expect (`portal`) and evaluates deploy/prometheus/portal-rules.yml as
 * shipped. After the run, `ALERTS` says which alerts fired and when, for the report's faults and quiet minutes.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../server/render/assets';
import { spawnChild } from '../bench/children';
import { freePort } from '../free-port';

/** Scrapes and rule evaluations this often: a short run still sees each series move. */
export const SCRAPE_EVERY_S = 2;

export interface FiredAlert {
  alertname: string;
  /** Labels other than alertname and alertstate (instance, redis, source…). */
  labels: Record<string, string>;
  /** Unix seconds of the first and last evaluation that found it firing. */
  from: number;
  to: number;
}

export interface RunningPrometheus {
  url: string;
  /** Every alert that was firing at some evaluation between `fromS` and `toS` (unix seconds). */
  firedBetween(fromS: number, toS: number): Promise<FiredAlert[]>;
  stop(): Promise<void>;
}

export async function startPrometheus(targets: readonly string[]): Promise<RunningPrometheus> {
  const dir = mkdtempSync(path.join(tmpdir(), 'day-prometheus-'));
  const port = await freePort();
  const rules = path.join(PROJECT_ROOT, 'deploy/prometheus/portal-rules.yml');
  const config = [
    'global:',
    `  scrape_interval: ${SCRAPE_EVERY_S}s`,
    `  evaluation_interval: ${SCRAPE_EVERY_S}s`,
    'rule_files:',
    `  - ${JSON.stringify(rules)}`,
    'scrape_configs:',
    '  - job_name: portal',
    `    scrape_timeout: ${SCRAPE_EVERY_S}s`,
    '    static_configs:',
    `      - targets: [${targets.map((target) => JSON.stringify(new URL(target).host)).join(', ')}]`,
    '',
  ].join('\n');
  writeFileSync(path.join(dir, 'prometheus.yml'), config);
  const child = spawnChild(
    'prometheus',
    'prometheus',
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://127.0.0.1:${port}`;
  await untilReady(url, child.process);
  return {
    url,
    firedBetween: (fromS, toS) => firedBetween(url, fromS, toS),
    stop: async () => {
      await child.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function untilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prometheus exited with code ${child.exitCode}`);
    const ready = await fetch(`${url}/-/ready`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`prometheus did not get ready at ${url} within 60 s`);
}

interface RangeAnswer {
  status: string;
  data?: { result?: Array<{ metric: Record<string, string>; values: Array<[number, string]> }> };
}

async function firedBetween(url: string, fromS: number, toS: number): Promise<FiredAlert[]> {
  const query = new URLSearchParams({ query: 'ALERTS{alertstate="firing"}', start: String(fromS), end: String(toS), step: String(SCRAPE_EVERY_S) });
  const answer = (await fetch(`${url}/api/v1/query_range?${query}`).then((res) => res.json())) as RangeAnswer;
  if (answer.status !== 'success') throw new Error(`prometheus query_range answered ${JSON.stringify(answer).slice(0, 300)}`);
  return (answer.data?.result ?? []).map(({ metric, values }) => {
    const { alertname = '', alertstate: _state, __name__: _name, ...labels } = metric;
    return { alertname, labels, from: values[0]?.[0] ?? fromS, to: values.at(-1)?.[0] ?? toS };
  });
}
