/**
 * `npm run audit:deps`: `npm audit --omit=dev` judged against the documented allowance list
 * (audit-allowances.json). Exit codes: 0 clean (or only allowed / low findings), 1 an advisory of moderate or
 * higher severity that no live allowance covers, 2 the audit could not be performed and `--require` was given,
 * 78 the allowance file is invalid. Extra arguments after `--` go to npm (e.g. `--registry`).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';

const SEVERITIES = ['info', 'low', 'moderate', 'high', 'critical'] as const;
type Severity = (typeof SEVERITIES)[number];
const FAILING_FROM: Severity = 'moderate';

const allowanceSchema = z
  .object({
    advisory: z.union([z.number().int().positive(), z.string().url()]),
    package: z.string().min(1),
    reason: z.string().min(10, 'say why the advisory does not apply'),
    until: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD after which the allowance lapses'),
  })
  .strict();
const allowanceFileSchema = z.object({ allowances: z.array(allowanceSchema) }).strict();
type Allowance = z.infer<typeof allowanceSchema>;

/** One advisory as `npm audit --json` (report version 2) lists it under a vulnerable package's `via`. */
const advisorySchema = z.object({
  source: z.number(),
  name: z.string(),
  title: z.string(),
  url: z.string(),
  severity: z.enum(SEVERITIES),
  range: z.string(),
});
type Advisory = z.infer<typeof advisorySchema>;

const reportSchema = z.object({
  vulnerabilities: z.record(z.string(), z.object({ via: z.array(z.unknown()) })),
});

type AuditOutcome = { kind: 'unavailable'; reason: string } | { kind: 'report'; failing: Advisory[]; allowed: Advisory[]; tolerated: Advisory[] };

/** The distinct advisories of a report; packages that are only vulnerable *through* another list its name, not an advisory. */
function advisoriesOf(report: z.infer<typeof reportSchema>): Advisory[] {
  const byId = new Map<number, Advisory>();
  for (const vulnerability of Object.values(report.vulnerabilities)) {
    for (const via of vulnerability.via) {
      const advisory = advisorySchema.safeParse(via);
      if (advisory.success) byId.set(advisory.data.source, advisory.data);
    }
  }
  return [...byId.values()].sort((a, b) => a.source - b.source);
}

function covers(allowance: Allowance, advisory: Advisory, today: string): boolean {
  const sameAdvisory = allowance.advisory === advisory.source || allowance.advisory === advisory.url;
  return sameAdvisory && allowance.package === advisory.name && today <= allowance.until;
}

/** npm prints the failed registry answer (`message`) or an `error.summary` instead of a report. */
function unavailableReason(json: unknown): string {
  const answer = json as { message?: unknown; error?: { summary?: unknown } } | null;
  const reason = answer?.message ?? answer?.error?.summary;
  return typeof reason === 'string' && reason !== '' ? reason : 'npm audit printed no report';
}

function judge(npmOutput: string, allowances: readonly Allowance[], today: string): AuditOutcome {
  let json: unknown;
  try {
    json = JSON.parse(npmOutput);
  } catch {
    return { kind: 'unavailable', reason: 'npm audit printed no JSON report' };
  }
  const report = reportSchema.safeParse(json);
  if (!report.success) return { kind: 'unavailable', reason: unavailableReason(json) };
  const failing: Advisory[] = [];
  const allowed: Advisory[] = [];
  const tolerated: Advisory[] = [];
  for (const advisory of advisoriesOf(report.data)) {
    if (allowances.some((allowance) => covers(allowance, advisory, today))) allowed.push(advisory);
    else if (SEVERITIES.indexOf(advisory.severity) >= SEVERITIES.indexOf(FAILING_FROM)) failing.push(advisory);
    else tolerated.push(advisory);
  }
  return { kind: 'report', failing, allowed, tolerated };
}

function readAllowances(file: string): Allowance[] {
  return allowanceFileSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).allowances;
}

function runNpmAudit(npmArgs: readonly string[]): Promise<string> {
  return new Promise((resolve) => {
    // npm audit exits 1 when it finds anything; the JSON on stdout is what matters.
    execFile('npm', ['audit', '--omit=dev', '--json', ...npmArgs], { maxBuffer: 64 * 1024 * 1024 }, (_error, stdout) => resolve(String(stdout)));
  });
}

function line(advisory: Advisory): string {
  return `  ${advisory.severity.padEnd(8)} ${advisory.name} ${advisory.range} — ${advisory.title} (${advisory.url})`;
}

async function main(): Promise<void> {
  const program = new Command('audit:deps')
    .description('npm audit --omit=dev, judged against audit-allowances.json')
    .option('--allowances <file>', 'allowance list', path.join(process.cwd(), 'audit-allowances.json'))
    .option('--require', 'exit 2 when the advisory endpoint cannot be reached (default: warn and exit 0)')
    .argument('[npmArgs...]', 'passed to npm audit after --')
    .parse();
  const options = program.opts<{ allowances: string; require?: boolean }>();
  let allowances: Allowance[];
  try {
    allowances = readAllowances(options.allowances);
  } catch (error) {
    console.error(`audit: ${options.allowances} is not a valid allowance list: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(78);
  }
  const today = new Date().toISOString().slice(0, 10);
  const outcome = judge(await runNpmAudit(program.args), allowances, today);
  if (outcome.kind === 'unavailable') {
    console.warn(`audit: NOT PERFORMED — ${outcome.reason}`);
    process.exit(options.require ? 2 : 0);
  }
  for (const advisory of outcome.allowed) console.log(`allowed by audit-allowances.json:\n${line(advisory)}`);
  for (const advisory of outcome.tolerated) console.log(`below ${FAILING_FROM}:\n${line(advisory)}`);
  if (outcome.failing.length === 0) {
    console.log(`audit: no ${FAILING_FROM}-or-worse advisory outside the allowance list`);
    return;
  }
  console.error(`audit: ${outcome.failing.length} advisory(ies) to fix or allow:\n${outcome.failing.map(line).join('\n')}`);
  process.exit(1);
}

void main();
