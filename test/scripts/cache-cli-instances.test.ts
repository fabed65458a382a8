/**
 * The CLI never hangs and tells the truth about every instance: two real portals announced in Redis, beside a
 * hung instance (a real server that accepts connections and never answers) and a dead one (a port nobody listens
 * on). stats, watch and instances find the announced portals without --portal, answer for the live ones, name
 * the hung and the dead ones with why, and end with exit code 5 (partial) instead of waiting or aborting. A Redis
 * that stops answering (frozen) ends the CLI when its message says.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { buildCacheCli, type CacheCli, type CliRun } from '../support/cache-cli';
import { redisPortalSuite } from '../support/redis-portal';
import { OwnRedis } from '../support/redis-server';
import { describeWithRedis, testRedisUrl } from '../support/requirements';
import { table } from '../../scripts/cache-cli/output';

jest.setTimeout(300_000);

interface Failed {
  url: string;
  error: string;
}

interface Instance {
  id: string | null;
  url: string;
  source: string;
  health: string;
  readiness: string;
  draining: boolean | null;
  checks: Record<string, string> | null;
  build: string | null;
  l1Bytes: number | null;
  ok: boolean;
}

/** A server that accepts every connection and never writes a byte: a stuck process, a firewall's tarpit. */
async function startHungServer(): Promise<{ url: string; accepted: () => number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accepted: () => accepted,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A server that answers every request with a valid head and then a byte a second, for ever: a portal stuck
 * half-way through a page, or a tarpit. A socket's idle timeout never fires on it.
 */
async function startDrippingServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n');
      const drip = setInterval(() => (socket.destroyed ? clearInterval(drip) : socket.write('1\r\n#\r\n')), 1000);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Another service on a port: 200 to everything, with a body that is no portal's answer. */
async function startOtherService(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => res.end('# HELP up Something else.\nup 1\n<html>not a portal</html>\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A loopback port nobody listens on: taken from the kernel, then released. */
async function deadUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

function parsed<T>(result: CliRun): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not one JSON document (exit ${result.code}): ${result.stdout}\n${result.stderr}`);
  }
}

describeWithRedis()('portal-cache against live, hung and dead instances', () => {
  const suite = redisPortalSuite({ instances: 2 });
  let cli: CacheCli;
  let hung: Awaited<ReturnType<typeof startHungServer>>;
  let dead: string;
  beforeAll(async () => {
    cli = await buildCacheCli({ REDIS_URL: testRedisUrl(), CACHE_PREFIX: suite.portal.cachePrefix });
    hung = await startHungServer();
    dead = await deadUrl();
  });
  afterAll(async () => {
    cli?.remove();
    await hung?.close();
  });

  it('instances: health, readiness, build and L1 of each announced instance; the hung and dead ones named, exit 5', async () => {
    const { portal, peer } = suite;
    await request(portal.url).get('/about').expect(200);
    const result = await cli.run('--json', '--timeout', '4', 'instances', '--portal', hung.url, '--portal', dead);
    expect(result.code).toBe(5);
    const doc = parsed<{ version: number; command: string; instances: Instance[] }>(result);
    expect(doc).toMatchObject({ version: 1, command: 'instances' });
    const at = (url: string) => doc.instances.find((instance) => instance.url === url);
    for (const live of [portal, peer]) {
      expect(at(live.url)).toMatchObject({
        source: 'announced',
        health: 'ok',
        readiness: 'ready',
        draining: false,
        checks: { redis: 'up', upstream: 'up' },
        build: live.portal.assets.buildId,
        ok: true,
      });
      expect(at(live.url)!.id).toEqual(expect.any(String));
      expect(at(live.url)!.l1Bytes).toEqual(expect.any(Number));
    }
    expect(at(portal.url)!.l1Bytes).toBeGreaterThan(0); // it served /about, so its L1 holds the page
    expect(hung.accepted()).toBeGreaterThan(0); // the hung server was really asked
    expect(at(hung.url)).toMatchObject({ source: 'portal', health: 'no answer within 4 s', readiness: 'no answer within 4 s', ok: false });
    expect(at(dead)).toMatchObject({ source: 'portal', health: expect.stringMatching(/ECONNREFUSED/), ok: false });

    // The same as a table for people: every row's columns start where the header's do.
    const human = await cli.run('--timeout', '4', 'instances', '--portal', dead);
    expect(human.code).toBe(5);
    const lines = human.stdout.trimEnd().split('\n');
    const header = lines[0]!;
    const starts = ['url', 'health', 'readiness'].map((column) => header.indexOf(column));
    for (const line of lines.slice(1, 4)) for (const start of starts) expect(line[start - 1]).toBe(' ');
    expect(lines.at(-1)).toBe(`not ok: ${dead}`);

    // Only announced, live instances: all healthy, exit 0.
    const allWell = await cli.run('--json', 'instances');
    expect(allWell.code).toBe(0);
    expect(
      parsed<{ instances: Instance[] }>(allWell)
        .instances.map((instance) => instance.url)
        .sort(),
    ).toEqual([portal.url, peer.url].sort());
  });

  it('stats finds the announced instances without --portal; a hung and a dead one are named and left out (exit 5)', async () => {
    const { portal, peer } = suite;
    await request(portal.url).get('/about').expect(200);
    await request(peer.url).get('/about').expect(200);
    // Both forms asked at once: each waits its 4 s for the hung server, side by side rather than one after the other.
    const [result, human] = await Promise.all([
      cli.run('--json', '--timeout', '4', 'stats', '--portal', hung.url, '--portal', dead),
      cli.run('--timeout', '4', 'stats', '--portal', hung.url),
    ]);
    expect(result.code).toBe(5);
    const doc = parsed<{ portals: string[]; failed: Failed[]; ratios: { rows: Array<{ kind: string; hits: number; misses: number }> } }>(result);
    expect(doc.portals.sort()).toEqual([portal.url, peer.url].sort());
    expect(doc.failed).toEqual(
      expect.arrayContaining([
        { url: hung.url, error: expect.stringContaining('no answer within 4 s') },
        { url: dead, error: expect.stringMatching(/ECONNREFUSED/) },
      ]),
    );
    const pages = doc.ratios.rows.filter((row) => row.kind === 'page');
    expect(pages.reduce((sum, row) => sum + row.hits + row.misses, 0)).toBeGreaterThanOrEqual(2);

    expect(human.code).toBe(5);
    expect(human.stdout).toContain(`no answer from ${hung.url}, left out: ${hung.url}/metrics: no answer within 4 s`);
    expect(human.stdout).toMatch(/hit ratios \(since start, 2 instances\)/);
    // The per-site table: numbers right-aligned under their headers.
    const tableLines = human.stdout.split('\n').filter((line) => /^(kind|page|data)\s/.test(line));
    const hitsEnd = tableLines[0]!.indexOf('hits') + 'hits'.length;
    for (const line of tableLines.slice(1)) expect(line.slice(0, hitsEnd)).toMatch(/\d$/);
  });

  it('watch finds the announced instances, names a hung one in each line and keeps the interval pace (exit 5)', async () => {
    const { portal } = suite;
    let watching = true;
    const [result] = await Promise.all([
      cli.run('--json', '--timeout', '8', 'watch', '--portal', hung.url, '--interval', '1', '--count', '3').finally(() => (watching = false)),
      (async () => {
        while (watching) {
          await request(portal.url).get('/about');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })(),
    ]);
    expect(result.code).toBe(5);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { at: string; instances: number; failed: Failed[]; lookups: number });
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line.instances).toBe(2);
      // A round waits for an instance no longer than the interval, not the whole --timeout.
      expect(line.failed).toEqual([{ url: hung.url, error: expect.stringContaining('no answer within 1 s') }]);
    }
    expect(lines.some((line) => line.lookups > 0)).toBe(true);
    // The pace, by what each round says rather than by the clock: every round gave the hung instance up after
    // the 1 s interval (its error above), none after the 8 s --timeout, and the lines come in order.
    const times = lines.map((line) => Date.parse(line.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('warm gives up on a portal that sends its answer a byte a second, within --timeout, naming why (exit 1)', async () => {
    const drip = await startDrippingServer();
    try {
      const dir = mkdtempSync(path.join(tmpdir(), 'warm-drip-'));
      const list = path.join(dir, 'urls.txt');
      writeFileSync(list, '/about\nhttps://www.qnnews.cn/\n');
      // A sitemap index: its sub-sitemap is read through the same portal, under the same bound.
      const index = path.join(dir, 'index.xml');
      writeFileSync(index, '<sitemapindex><sitemap><loc>https://www.qnnews.cn/sitemaps/pages.xml</loc></sitemap></sitemapindex>');
      // Both at once: each waits its 3 s on the dripping server, side by side.
      const [result, followed] = await Promise.all([
        cli.run('--json', '--timeout', '3', 'warm', list, '--portal', drip.url),
        cli.run('--json', '--timeout', '3', 'warm', index, '--portal', drip.url),
      ]);
      expect(result.code).toBe(1);
      const doc = parsed<{ ok: number; failed: number; failures: Array<{ url: string; status: number; error: string }> }>(result);
      expect(doc).toMatchObject({ ok: 0, failed: 2 });
      for (const failure of doc.failures) expect(failure).toMatchObject({ status: 0, error: 'no answer within 3 s' });
      expect(followed.code).toBe(1);
      expect(parsed<{ error: string }>(followed).error).toContain('no answer within 3 s');
    } finally {
      await drip.close();
    }
  });

  it('stats and watch name a --portal that answers 200 but is no portal, instead of counting it as an idle instance (exit 5)', async () => {
    const other = await startOtherService();
    try {
      for (const args of [['stats'], ['watch', '--interval', '1', '--count', '1']]) {
        const result = await cli.run('--json', '--timeout', '4', ...args, '--portal', other.url);
        expect([args[0], result.code]).toEqual([args[0], 5]);
        const doc = parsed<{ failed: Failed[] }>(result);
        expect(doc.failed).toEqual([{ url: other.url, error: expect.stringContaining("not a portal's /metrics") }]);
      }
    } finally {
      await other.close();
    }
  });

  it('warm refuses a list naming a host that is not one of the sites (exit 2), before requesting anything', async () => {
    const list = path.join(mkdtempSync(path.join(tmpdir(), 'warm-hosts-')), 'urls.txt');
    writeFileSync(list, `/about\nhttps://www.qnnews.cn/\nhttps://evil.example.com/detail/1/1\n`);
    const before = hung.accepted();
    const result = await cli.run('--json', 'warm', list, '--portal', hung.url);
    expect(result.code).toBe(2);
    expect(parsed<{ command: string; exitCode: number; error: string }>(result)).toMatchObject({
      command: 'warm',
      exitCode: 2,
      error: expect.stringContaining('"evil.example.com" is not one of the portal\'s sites'),
    });
    expect(hung.accepted()).toBe(before);
  });

  it('--json prints a document for usage errors too; each command’s --help lists its exit codes and examples', async () => {
    const cases: Array<[string[], string, RegExp]> = [
      [['--json', 'purge', '--nope'], 'purge', /unknown option '--nope'/],
      [['--json', 'inspect'], 'inspect', /missing required argument/],
      [['--json', 'nosuchcommand'], 'portal-cache', /unknown command/],
      [['--json', 'stats', '--top', '0'], 'stats', /--top must be a whole number/],
      [['--json', '--timeout', 'x', 'stats'], 'stats', /--timeout must be a whole number/],
      // No command at all (commander shows the help; its own message is the internal '(outputHelp)').
      [['--json'], 'portal-cache', /^no command given: one of stats, instances, inspect, purge, purges, warm, policy, watch/],
      [['--json', 'policy'], 'policy', /^no policy sub-command given: one of get, set, unset, reset/],
    ];
    const results = await Promise.all(cases.map(([args]) => cli.run(...args)));
    cases.forEach(([, command, message], index) => {
      expect(results[index]!.code).toBe(2);
      expect(parsed(results[index]!)).toEqual({ version: 1, command, exitCode: 2, error: expect.stringMatching(message) });
    });
    const commands = [
      'stats',
      'instances',
      'inspect',
      'purge',
      'purges',
      'warm',
      'watch',
      'policy',
      'policy get',
      'policy set',
      'policy unset',
      'policy reset',
    ];
    const helps = await Promise.all(commands.map((command) => cli.run(...command.split(' '), '--help')));
    helps.forEach((help, index) => {
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/Exit codes:\n {2}0 {2}done\n/);
      expect(help.stdout).toMatch(new RegExp(`Examples:\\n {2}portal-cache ${commands[index]!.split(' ')[0]}`));
    });
    expect(helps[0]!.stdout).toMatch(/5 {2}partial answer/);
  });
  it('instances says which one is draining (last: the peer stays draining)', async () => {
    const { peer } = suite;
    peer.portal.startDraining();
    const result = await cli.run('--json', 'instances');
    expect(result.code).toBe(5);
    const drained = parsed<{ instances: Instance[] }>(result).instances.find((instance) => instance.url === peer.url);
    expect(drained).toMatchObject({ health: 'ok', readiness: 'draining', draining: true, ok: false });
  });
});

describeWithRedis()('portal-cache against a Redis that stops answering', () => {
  let cli: CacheCli;
  let redis: OwnRedis;
  beforeAll(async () => {
    cli = await buildCacheCli({});
    redis = await OwnRedis.start();
    redis.pause();
  });
  afterAll(async () => {
    cli?.remove();
    await redis?.stop('SIGKILL');
  });

  it.each([
    ['the default deadline', [], 5],
    ['--timeout 2', ['--timeout', '2'], 2],
  ])('gives up at the deadline its message names (%s) and exits once it has said so (exit 3)', async (_name, extra, seconds) => {
    const child = spawn(process.execPath, [cli.file, '--redis', redis.url, ...extra, 'stats'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(3);
    expect(stderr).toContain(`cannot reach Redis at ${redis.url}: no answer within ${seconds} s`);
  });
});

describe('table', () => {
  it('aligns columns by display width: a Chinese character takes two columns', () => {
    const text = table(
      [
        ['id', 'site', 'hits'],
        ['1', '北京', '12'],
        ['22', 'www.qnnews.cn', '3'],
      ],
      [2],
    );
    const lines = text.split('\n');
    // Display width of every line up to the last column is the same: the numbers end in one column.
    const width = (line: string) => [...line].reduce((sum, char) => sum + (/[\u4e00-\u9fff]/.test(char) ? 2 : 1), 0);
    expect(new Set(lines.map(width)).size).toBe(1);
    expect(lines[1]).toBe('1   北京             12');
  });
});
