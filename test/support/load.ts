/**
 * A bounded load loop for fault tests: a few concurrent clients request a list of URLs round-robin until the
 * time is up, and every answer is counted. Loopback only; it stops by itself.
 */
import http from 'node:http';

export interface LoadFigures {
  total: number;
  byStatus: Record<string, number>;
  byCache: Record<string, number>;
  /** Requests that got no HTTP answer at all (refused, reset). */
  errors: number;
  maxMs: number;
}

function once(url: string, agent: http.Agent): Promise<{ status: number; cache: string; ms: number } | null> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, cache: String(res.headers['x-cache'] ?? '-'), ms: performance.now() - started }));
      res.on('error', () => resolve(null));
    });
    req.on('error', () => resolve(null));
  });
}

export interface RunningLoad {
  /** Counted as answers arrive, so a test can act once enough traffic has gone through. */
  figures: LoadFigures;
  /** Clients finish the request they are in and stop. */
  stop: () => void;
  done: Promise<LoadFigures>;
}

/** Load that runs until stopped. */
export function startLoad(urls: readonly string[], concurrency = 6): RunningLoad {
  const figures: LoadFigures = { total: 0, byStatus: {}, byCache: {}, errors: 0, maxMs: 0 };
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let stopped = false;
  let next = 0;
  const client = async () => {
    while (!stopped) {
      const url = urls[next++ % urls.length]!;
      const answer = await once(url, agent);
      figures.total += 1;
      if (!answer) {
        figures.errors += 1;
        continue;
      }
      figures.byStatus[answer.status] = (figures.byStatus[answer.status] ?? 0) + 1;
      figures.byCache[answer.cache] = (figures.byCache[answer.cache] ?? 0) + 1;
      figures.maxMs = Math.max(figures.maxMs, Math.round(answer.ms));
    }
  };
  const done = Promise.all(Array.from({ length: concurrency }, client)).then(() => {
    agent.destroy();
    return figures;
  });
  return { figures, stop: () => (stopped = true), done };
}

export async function runLoad(urls: readonly string[], durationMs: number, concurrency = 6): Promise<LoadFigures> {
  const load = startLoad(urls, concurrency);
  const timer = setTimeout(load.stop, durationMs);
  const figures = await load.done;
  clearTimeout(timer);
  return figures;
}

/** Resolves once `enough` answers have arrived (or rejects after `timeoutMs`, naming what did arrive). */
export async function untilAnswered(load: RunningLoad, enough: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (load.figures.total - load.figures.errors < enough) {
    if (Date.now() > deadline) throw new Error(`only ${load.figures.total} answers after ${timeoutMs} ms: ${JSON.stringify(load.figures)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Asks each URL until it answers a HIT (stored, so held by the cache): warm-up by condition, since a timed load
 * on a busy machine may not reach every URL at all. Rejects, naming the URL and its last answer, after `timeoutMs`.
 */
export async function warmUntilHit(urls: readonly string[], timeoutMs = 30_000): Promise<void> {
  const agent = new http.Agent({ keepAlive: true });
  try {
    for (const url of urls) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const answer = await once(url, agent);
        if (answer?.cache === 'HIT') break;
        if (Date.now() > deadline) throw new Error(`${url} was not a HIT within ${timeoutMs} ms (last answer: ${JSON.stringify(answer)})`);
      }
    }
  } finally {
    agent.destroy();
  }
}

export function printFigures(label: string, figures: LoadFigures): void {
  console.log(`${label}: ${JSON.stringify(figures)}`);
}
