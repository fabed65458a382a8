/**
 * deploy/nginx.conf with Debian's nginx: `nginx -t` accepts it, and run on a loopback port in front of a real
 * portal it passes pages and refuses the operations endpoints (/metrics, /readyz, /_internal) in every spelling the
 * portal's router would still match. The file is used as it is, with only the instance addresses and the
 * listening port substituted (compose's service names do not resolve here).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/free-port';
import { startTestPortal, type TestPortal } from '../support/portal';
import { describeWithNginx } from '../support/requirements';

const ROOT = path.resolve(__dirname, '../..');
const CONF = readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8');

/** The shipped server block with the instances and the port put in by substitution, as a template would. */
function adapted(instances: readonly string[], port: number): string {
  let index = 0;
  const conf = CONF.replace(/server portal-\d+:3000/g, () => `server ${instances[index++ % instances.length]!}`).replace(
    /listen 8080;/,
    `listen 127.0.0.1:${port};`,
  );
  if (conf === CONF) throw new Error('deploy/nginx.conf no longer names portal-N:3000 and port 8080');
  return conf;
}

/** A main nginx.conf of its own (pid, logs and temp files in `dir`) that includes the server block. */
function mainConf(dir: string, serverBlock: string): string {
  writeFileSync(path.join(dir, 'portal.conf'), serverBlock);
  const temp = path.join(dir, 'temp');
  mkdirSync(temp, { recursive: true });
  // Workers run as nobody when the master is root: they must be able to write their temp files.
  chmodSync(temp, 0o777);
  const file = path.join(dir, 'nginx.conf');
  writeFileSync(
    file,
    [
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 256; }',
      'http {',
      `  access_log ${dir}/access.log;`,
      `  client_body_temp_path ${temp}/body; proxy_temp_path ${temp}/proxy; fastcgi_temp_path ${temp}/fastcgi;`,
      `  uwsgi_temp_path ${temp}/uwsgi; scgi_temp_path ${temp}/scgi;`,
      `  include ${dir}/portal.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  return file;
}

function nginxTest(file: string, dir: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('nginx', ['-t', '-c', file, '-p', dir], (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr });
    });
  });
}

function get(port: number, pathAndQuery: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathAndQuery, headers: { 'accept-encoding': 'identity' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describeWithNginx()('deploy/nginx.conf', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'portal-nginx-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes `nginx -t`, and a misspelt directive fails it (so the check can fail)', async () => {
    const good = await nginxTest(mainConf(dir, adapted(['127.0.0.1:3000', '127.0.0.1:3001'], 8080)), dir);
    expect(good.output).toMatch(/syntax is ok/);
    expect(good.code).toBe(0);
    const bad = await nginxTest(mainConf(dir, adapted(['127.0.0.1:3000'], 8080).replace('proxy_buffering off;', 'proxy_bufering off;')), dir);
    expect(bad.code).not.toBe(0);
    expect(bad.output).toMatch(/proxy_bufering/);
  });

  it('does not count the portal’s own 503 answers as instance failures', () => {
    const retry = CONF.match(/^\s*proxy_next_upstream\s+([^;]+);/m)?.[1] ?? '';
    expect(retry.split(/\s+/)).not.toContain('http_503');
    expect(retry.split(/\s+/)).toEqual(expect.arrayContaining(['error', 'timeout']));
  });

  describe('in front of a real portal', () => {
    let t: TestPortal;
    let nginx: ChildProcess;
    let port: number;
    beforeAll(async () => {
      t = await startTestPortal();
      port = await freePort();
      const portalPort = new URL(t.url).port;
      const file = mainConf(dir, adapted([`127.0.0.1:${portalPort}`], port));
      nginx = spawn('nginx', ['-c', file, '-p', dir, '-g', 'daemon off;'], { stdio: 'ignore' });
      const deadline = Date.now() + 15_000;
      while (
        !(await get(port, '/healthz').then(
          (res) => res.status === 200,
          () => false,
        ))
      ) {
        if (Date.now() > deadline) throw new Error(`nginx did not answer: ${readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    afterAll(async () => {
      if (nginx.exitCode === null && nginx.signalCode === null) {
        const exited = new Promise((resolve) => nginx.once('exit', resolve));
        nginx.kill('SIGQUIT'); // nginx's graceful stop: the master stops its workers and exits
        await exited;
      }
      await t.close();
    });

    it('passes pages to the portal', async () => {
      for (const page of ['/', '/about', '/?utm_source=x', '/healthz']) {
        const res = await get(port, page);
        expect([page, res.status]).toEqual([page, 200]);
      }
      expect((await get(port, '/')).body).toContain('<html');
    });

    it.each([
      '/metrics',
      '/readyz',
      '/METRICS',
      '/Metrics',
      '/metrics/',
      '/readyz/',
      '/metrics?x=1',
      '/ReadyZ?probe=1',
      '//metrics',
      '/%6Detrics',
      '/./metrics',
      '/_internal/l1?key=x',
      '/_INTERNAL/l1?key=x',
      '//_internal/l1?key=x',
      '/%5Finternal/l1?key=x',
      '/_internal/../_internal/l1?key=x',
    ])('refuses %s from the public while the portal itself answers it', async (spelling) => {
      const res = await get(port, spelling);
      expect(res.status).toBe(404);
      expect(res.body).not.toMatch(/portal_http_requests_total|"checks"|"entries"/);
    });

    it('even an nginx on the portal’s own machine does not reach /_internal: the portal refuses relayed requests', async () => {
      // Were the location above missing, nginx's request would come from loopback but carry X-Forwarded-For.
      const relayed = await new Promise<number>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port: Number(new URL(t.url).port), path: '/_internal/l1?key=x', headers: { 'x-forwarded-for': '203.0.113.9' } }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
          .on('error', reject);
      });
      expect(relayed).toBe(403);
      expect((await get(Number(new URL(t.url).port), '/_internal/l1?key=x')).status).toBe(200);
    });

    it('is what the portal would otherwise answer (the refusal is nginx’s, not the portal’s)', async () => {
      const direct = await get(Number(new URL(t.url).port), '/METRICS');
      expect(direct.status).toBe(200);
      expect(direct.body).toContain('portal_http_requests_total');
    });
  });
});
