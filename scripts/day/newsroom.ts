/**
 * The newsroom of the day: a correction every 2 s through the publish hook (head and tail articles in turn, each
 * new headline carrying a marker, changed in the reference API's control plane first, purged hard as
 * docs/publish-hook.md says of a correction that must not be seen again), takedowns now and then (the CMS answers
 * "not found" for the article from then on), grey mode on and off once, and the run's Redis restarted half way.
 * A hook answered 503 (the cache store unreachable, as while Redis restarts) is sent again, signed anew.
 */
import type { EdgeStack } from '../bench/edge-stack';
import { faultMoments, inject, type Fault, type FaultWindow } from './faults';
import type { Ledger } from './truth';
import { HEAD_SIZE, type Article } from './traffic';

export const CORRECTION_EVERY_MS = 2000;
/** When, as a fraction of the run, the other events happen. */
export const SCHEDULE = { takedowns: [0.2, 0.45, 0.7, 0.9], greyOn: 0.3, greyOff: 0.38, redisRestart: 0.5 } as const;
const HOOK_RETRY_FOR_MS = 30_000;

export type EventKind = 'correction' | 'takedown' | 'grey on' | 'grey off' | 'redis restart' | 'fault';

export interface NewsroomEvent {
  kind: EventKind;
  /** ms from the start of the run. */
  at: number;
  article?: number;
  /** From the first call to the answer that counted (or the restart's end). */
  ms: number;
  /** The hook's last status (200 complete, 202 partly), 0 when it never answered 2xx. */
  status: number;
  attempts: number;
}

export interface Newsroom {
  events: NewsroomEvent[];
  /** Hook calls that never got a 2xx within 30 s. */
  failures: string[];
  /** Resolves when every event of the run has happened. */
  done: Promise<void>;
  /** When the Redis restart began and ended (performance.now()), once it has. */
  restart: { from: number; to: number } | null;
  /** The faults of a day with faults, as they happened. */
  faults: FaultWindow[];
  /** Whether the CMS is failing or stalling now (a fault): a page no cache holds cannot be rendered meanwhile. */
  cmsAway(): boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The articles corrected over and over (the head's and the tail's), and those taken down (never corrected). */
export function newsroomArticles(articles: readonly Article[]): { head: Article[]; tail: Article[]; takedowns: Article[]; duringFaults: Article[] } {
  const tailStep = Math.max(1, Math.floor((articles.length - HEAD_SIZE) / 12));
  const tail = Array.from({ length: 12 }, (_, index) => articles[HEAD_SIZE + index * tailStep]).filter((article): article is Article => !!article);
  const present = (list: Array<Article | undefined>) => list.filter((article): article is Article => !!article);
  return {
    head: articles.slice(0, 12),
    tail,
    takedowns: present([articles[20], articles[HEAD_SIZE + 7], articles[40], articles[HEAD_SIZE + 501]]),
    // One taken down as each fault begins: head and tail articles in turn, none corrected or taken down otherwise.
    duringFaults: present(Array.from({ length: 8 }, (_, index) => (index % 2 === 0 ? articles[24 + index] : articles[HEAD_SIZE + 900 + index * 37]))),
  };
}

/**
 * The newsroom's day. With `faults` (a day with faults), the faults take the Redis restart's place: each begins at
 * its moment, and a correction and a takedown are sent as it does.
 */
export function runNewsroom(
  stack: EdgeStack,
  ledger: Ledger,
  articles: readonly Article[],
  startedAt: number,
  durationMs: number,
  faults: readonly Fault[] = [],
): Newsroom {
  const pools = newsroomArticles(articles);
  const events: NewsroomEvent[] = [];
  const failures: string[] = [];
  /** A CMS failing as a whole (a fault): under the takedowns' own rules, which name longer paths. */
  let cmsFailing = false;
  let cmsStallMs = 0;
  const newsroom: Newsroom = {
    events,
    failures,
    done: Promise.resolve(),
    restart: null,
    faults: [],
    cmsAway: () => cmsFailing || cmsStallMs > 0,
  };
  const end = startedAt + durationMs;
  const takenDown = new Set<number>();
  const rules: Array<{ path: string; mode: 'code' | 'http500'; code?: number }> = [];
  const applyFailures = () => stack.upstream.api.control.setFailures([...rules, ...(cmsFailing ? [{ path: '/', mode: 'http500' as const }] : [])]);
  let hookTurn = 0;

  /** The hook, retried (signed anew) until it answers 2xx; the time and status of the answer that counted. */
  async function publish(body: object, what: string): Promise<{ answeredAt: number; status: number; attempts: number; ms: number }> {
    const sent = performance.now();
    let attempts = 0;
    let last = '';
    while (performance.now() - sent < HOOK_RETRY_FOR_MS) {
      attempts += 1;
      const answer = await stack.hook(body, hookTurn++).catch((error: unknown) => ({ status: 0, body: String(error) }));
      if (answer.status === 200 || answer.status === 202)
        return { answeredAt: performance.now(), status: answer.status, attempts, ms: performance.now() - sent };
      last = `${answer.status} ${answer.body.slice(0, 200)}`;
      await sleep(250);
    }
    failures.push(`${what}: the hook never answered 2xx within ${HOOK_RETRY_FOR_MS / 1000} s (last: ${last})`);
    return { answeredAt: performance.now(), status: 0, attempts, ms: performance.now() - sent };
  }

  async function correct(article: Article): Promise<void> {
    const { marker, sequence } = ledger.nextMarker();
    const title = `${marker} ${article.title}`;
    stack.upstream.api.control.overrideArticle(article.id, { title, list_title: title });
    const at = performance.now() - startedAt;
    const answer = await publish({ tags: [`article:${article.id}`], soft: false, event: `day-correction-${sequence}` }, `correction of ${article.id}`);
    if (answer.status !== 0) ledger.corrected(article.id, sequence, answer.answeredAt);
    events.push({ kind: 'correction', at, article: article.id, ms: answer.ms, status: answer.status, attempts: answer.attempts });
  }

  async function takeDown(article: Article): Promise<void> {
    takenDown.add(article.id);
    rules.push({ path: `/show/${article.catid}-${article.id}.html`, mode: 'code', code: 40004 });
    applyFailures();
    const at = performance.now() - startedAt;
    const answer = await publish({ tags: [`article:${article.id}`], soft: false, event: `day-takedown-${article.id}` }, `takedown of ${article.id}`);
    if (answer.status !== 0) ledger.tookDown(article.id, answer.answeredAt);
    events.push({ kind: 'takedown', at, article: article.id, ms: answer.ms, status: answer.status, attempts: answer.attempts });
  }

  async function grey(on: boolean): Promise<void> {
    stack.upstream.api.control.setGreyMode(on ? '1' : '0');
    const at = performance.now() - startedAt;
    const answer = await publish({ tags: ['grey'], soft: false, event: `day-grey-${on ? 'on' : 'off'}` }, `grey ${on ? 'on' : 'off'}`);
    events.push({ kind: on ? 'grey on' : 'grey off', at, ms: answer.ms, status: answer.status, attempts: answer.attempts });
  }

  async function restartRedis(): Promise<void> {
    const from = performance.now();
    await stack.restartRedis();
    const to = performance.now();
    newsroom.restart = { from, to };
    events.push({ kind: 'redis restart', at: from - startedAt, ms: to - from, status: 0, attempts: 1 });
  }

  /** One every 2 s; when a hook takes longer (it waits for every instance and edge), the next starts at the next tick. */
  async function corrections(): Promise<void> {
    for (let turn = 0; ; turn += 1) {
      const tick = Math.ceil((performance.now() - startedAt) / CORRECTION_EVERY_MS);
      const due = startedAt + tick * CORRECTION_EVERY_MS;
      if (due > end - CORRECTION_EVERY_MS) return;
      await sleep(due - performance.now());
      const pool = turn % 2 === 0 ? pools.head : pools.tail;
      await correct(pool[Math.floor(turn / 2) % pool.length]!);
    }
  }

  /** `action` at `fraction` of the run. */
  const at = async (fraction: number, action: () => Promise<void>) => {
    await sleep(startedAt + durationMs * fraction - performance.now());
    await action();
  };

  const cms = {
    failing: (on: boolean) => {
      cmsFailing = on;
      applyFailures();
    },
    slow: (ms: number) => {
      cmsStallMs = ms;
      stack.upstream.api.control.setLatency(ms > 0 ? [{ path: '/', ms }] : []);
    },
  };

  /** The fault, with a correction and a takedown sent as it begins; its window once the part is back. */
  async function fault(which: Fault, index: number): Promise<void> {
    const from = performance.now();
    const injected = inject(stack, which, cms);
    const during = [correct(pools.head[(index * 5) % pools.head.length]!), ...(pools.duringFaults[index] ? [takeDown(pools.duringFaults[index]!)] : [])];
    await Promise.all([injected, ...during]);
    const to = performance.now();
    newsroom.faults.push({ fault: which, from, to });
    events.push({ kind: 'fault', at: from - startedAt, ms: to - from, status: 0, attempts: 1 });
  }

  const moments = faultMoments(faults.length);
  newsroom.done = Promise.all([
    corrections(),
    ...SCHEDULE.takedowns.map((fraction, index) => (pools.takedowns[index] ? at(fraction, () => takeDown(pools.takedowns[index]!)) : Promise.resolve())),
    at(SCHEDULE.greyOn, () => grey(true)),
    at(SCHEDULE.greyOff, () => grey(false)),
    ...(faults.length > 0 ? faults.map((which, index) => at(moments[index]!, () => fault(which, index))) : [at(SCHEDULE.redisRestart, restartRedis)]),
  ]).then(() => undefined);
  return newsroom;
}
