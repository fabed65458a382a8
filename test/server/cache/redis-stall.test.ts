/**
 * A Redis that stops answering without closing its connections (frozen by SIGSTOP: a stalled VM, a black-holed
 * network look the same) under steady load: two built portals on one redis-server of the test's own and the
 * reference API, a few clients asking for pages the portals hold and for pages never rendered yet (each a miss
 * that would read, lock and write through Redis). A stall costs a reader at most the stall: with a 1 s command
 * timeout, under a 4 s freeze the slowest answer takes at most the freeze and one command timeout, and under a
 * 30 s freeze no answer waits more than two command timeouts beyond the slowest answer seen with Redis up (a
 * render's own time on this machine). Every answer is a 200, throughout. (server/redis/stall.ts)
 */
import { randomBytes } from 'node:crypto';
import { articlePaths } from '../../../scripts/bench/render-portals';
import { startReferenceApi, type RunningReferenceApi } from '../../../scripts/reference-api/server';
import { startBuiltServer, type BuiltServer } from '../../support/built-server';
import { startLoad, untilAnswered, warmUntilHit, type LoadFigures } from '../../support/load';
import { OwnRedis } from '../../support/redis-server';
import { describeWithRedisServers } from '../../support/requirements';

const COMMAND_TIMEOUT_MS = 1000;
const CLIENTS = 4;

/** By the PID this test started, and until it has exited. */
async function stopServer(server: BuiltServer<{ msg?: string }>): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exit;
}

interface Frozen {
  /** The slowest answer with Redis up, ms. */
  slowestUp: number;
  /** The slowest answer from the freeze on (through it and after it), ms. */
  slowest: number;
  /** Answers that arrived while Redis was frozen. */
  answeredFrozen: number;
  figures: LoadFigures;
}

describeWithRedisServers()('a frozen Redis under load', () => {
  let upstream: RunningReferenceApi;
  let redis: OwnRedis;
  let portals: Array<BuiltServer<{ msg?: string }>> = [];

  beforeEach(async () => {
    upstream = await startReferenceApi({ port: 0, host: '127.0.0.1' });
    redis = await OwnRedis.start();
    const env = {
      UPSTREAM_URL: upstream.url,
      REDIS_URL: redis.url,
      CACHE_PREFIX: `stall${randomBytes(4).toString('hex')}`,
      REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS),
      LOG_LEVEL: 'info',
    };
    portals = await Promise.all([startBuiltServer(env), startBuiltServer(env)]);
  });

  afterEach(async () => {
    redis.resume();
    await Promise.all(portals.map(stopServer));
    await redis.stop();
    await upstream.close();
  });

  /**
   * Loads both portals (held pages and pages never asked for, in turn), freezes Redis for `freezeMs` once answers
   * flow, thaws it, and stops once answers flow again.
   */
  async function freezeUnderLoad(freezeMs: number): Promise<Frozen> {
    const [a, b] = portals.map((portal) => portal.url) as [string, string];
    const held = [`${a}/`, `${b}/`, `${a}/about`, `${b}/about`];
    await warmUntilHit(held);
    const cold = (await articlePaths(upstream.url, 200)).map((path, index) => `${index % 2 === 0 ? a : b}${path}`);
    const urls = cold.flatMap((url, index) => [url, held[index % held.length]!]);
    const load = startLoad(urls, CLIENTS);
    try {
      await untilAnswered(load, 40);
      const slowestUp = load.figures.maxMs;
      // From here on the slowest answer is the freeze's.
      load.figures.maxMs = 0;
      const answeredBefore = load.figures.total;
      redis.pause();
      // The freeze is the scenario itself, not a wait for a condition.
      await new Promise((resolve) => setTimeout(resolve, freezeMs));
      redis.resume();
      const answeredFrozen = load.figures.total - answeredBefore;
      // Answers after the thaw, so whatever was waiting on Redis has answered too.
      await untilAnswered(load, load.figures.total + 40);
      load.stop();
      const figures = await load.done;
      console.log(
        `Redis frozen ${freezeMs} ms: slowest answer ${figures.maxMs} ms (${slowestUp} ms with Redis up); ${answeredFrozen} answers while frozen; ${JSON.stringify(figures.byStatus)}`,
      );
      return { slowestUp, slowest: figures.maxMs, answeredFrozen, figures };
    } finally {
      load.stop();
      await load.done;
    }
  }

  function expectEveryAnswerOk(frozen: Frozen): void {
    expect(frozen.figures.errors).toBe(0);
    expect(frozen.figures.byStatus['200']).toBe(frozen.figures.total);
    // The portals kept answering while Redis was frozen, not only after it.
    expect(frozen.answeredFrozen).toBeGreaterThan(CLIENTS);
  }

  it('a 4 s freeze: every answer a 200, the slowest within the freeze and one command timeout', async () => {
    const frozen = await freezeUnderLoad(4000);
    expectEveryAnswerOk(frozen);
    expect(frozen.slowest).toBeLessThanOrEqual(4000 + COMMAND_TIMEOUT_MS);
  });

  it('a 30 s freeze: every answer a 200, none waiting more than two command timeouts beyond a render', async () => {
    const frozen = await freezeUnderLoad(30_000);
    expectEveryAnswerOk(frozen);
    expect(frozen.slowest).toBeLessThanOrEqual(frozen.slowestUp + 2 * COMMAND_TIMEOUT_MS);
  });
});
