/**
 * `npm run audit:deps` runs the real `npm audit` on this project's lockfile. npm's advisory endpoint is not
 * reachable here, so the test stands up one that speaks its protocol (POST /-/npm/v1/security/advisories/bulk,
 * a gzipped {package: [versions]} body, an answer of advisories by package) and points npm at it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PROJECT_ROOT } from '../../server/render/assets';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

interface FakeAdvisory {
  id: number;
  title: string;
  severity: 'low' | 'moderate' | 'high' | 'critical';
  vulnerable_versions: string;
}

/** What the advisory endpoint answers next: advisories by package name, or an HTTP status without a body. */
let answer: Record<string, FakeAdvisory[]> | number = {};
let lastQuery: Record<string, string[]> = {};

function advisoryEndpoint(): Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/-/npm/v1/security/advisories/bulk') {
        // Packuments (npm asks for them to work out fixes): none here.
        res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const body = Buffer.concat(chunks);
      lastQuery = JSON.parse((req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8')) as Record<string, string[]>;
      if (typeof answer === 'number') {
        res.writeHead(answer).end();
        return;
      }
      const advisories = Object.fromEntries(
        Object.entries(answer).map(([name, list]) => [
          name,
          list.map((advisory) => ({ ...advisory, url: `https://advisories.example/${advisory.id}`, cwe: [], cvss: { score: 0, vectorString: null } })),
        ]),
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(advisories));
    });
  });
}

describe('npm run audit:deps', () => {
  let server: Server;
  let registry: string;
  let built: string;
  const dir = mkdtempSync(path.join(tmpdir(), 'audit-'));

  let runs = 0;
  function run(args: string[]): Promise<Run> {
    // npm caches advisory answers by request; each run gets its own cache so it sees the answer set for it.
    const npmArgs = ['--registry', registry, '--cache', path.join(dir, `npm-cache-${(runs += 1)}`)];
    return new Promise((resolve) => {
      execFile(process.execPath, [built, ...args, '--', ...npmArgs], { cwd: PROJECT_ROOT }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      });
    });
  }

  function allowances(name: string, list: unknown[]): string {
    const file = path.join(dir, name);
    writeFileSync(file, JSON.stringify({ allowances: list }));
    return file;
  }

  const none = (): string => allowances('none.json', []);
  const debugHigh: FakeAdvisory = { id: 990001, title: 'ReDoS in debug', severity: 'high', vulnerable_versions: '<99.0.0' };

  beforeAll(async () => {
    server = advisoryEndpoint();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    // Built once through the same runner as `npm run audit:deps`, then run from its output.
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['scripts/run-ts.mjs', 'scripts/dependency-audit.ts', '--help'], { cwd: PROJECT_ROOT }, (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    built = path.join(PROJECT_ROOT, 'dist/run/dependency-audit.cjs');
  }, 60_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('asks about the production tree and fails on an advisory nobody allowed', async () => {
    answer = { debug: [debugHigh] };
    const result = await run(['--allowances', none()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ReDoS in debug');
    expect(result.stderr).toContain('https://advisories.example/990001');
    expect(Object.keys(lastQuery)).toEqual(expect.arrayContaining(['express', 'react', 'ioredis']));
    // --omit=dev: tooling is not asked about.
    expect(Object.keys(lastQuery)).not.toContain('jest');
  }, 60_000);

  it('passes when a live allowance with a reason covers the advisory, and fails again once it lapses', async () => {
    answer = { debug: [debugHigh] };
    const entry = { advisory: 990001, package: 'debug', reason: 'only reachable through a debug namespace we never enable' };
    const live = await run(['--allowances', allowances('live.json', [{ ...entry, until: '2999-12-31' }])]);
    expect(live.code).toBe(0);
    expect(live.stdout).toContain('allowed by audit-allowances.json');
    const lapsed = await run(['--allowances', allowances('lapsed.json', [{ ...entry, until: '2000-01-01' }])]);
    expect(lapsed.code).toBe(1);
  }, 60_000);

  it('reports low-severity advisories without failing', async () => {
    answer = { debug: [{ ...debugHigh, severity: 'low' }] };
    const result = await run(['--allowances', none()]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('below moderate');
  }, 60_000);

  it('says the audit was not performed when the endpoint refuses, and fails only with --require', async () => {
    answer = 405;
    const lenient = await run(['--allowances', none()]);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toMatch(/NOT PERFORMED — 405/);
    const strict = await run(['--require', '--allowances', none()]);
    expect(strict.code).toBe(2);
  }, 60_000);

  it('rejects an allowance without a reason or an end date (exit 78)', async () => {
    answer = {};
    const result = await run(['--allowances', allowances('bad.json', [{ advisory: 1, package: 'debug' }])]);
    expect(result.code).toBe(78);
    expect(result.stderr).toContain('not a valid allowance list');
  }, 60_000);
});
