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
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, cache: String(res.headers['x-cache'] ?? '-'), ms: performance.now() - started }),
      );
      res.on('error', () => resolve(null));
    });
    req.on('error', () => resolve(null));
  });
}

export async function runLoad(urls: readonly string[], durationMs: number, concurrency = 6): Promise<LoadFigures> {
  const figures: LoadFigures = { total: 0, byStatus: {}, byCache: {}, errors: 0, maxMs: 0 };
  const deadline = Date.now() + durationMs;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  const client = async () => {
    while (Date.now() < deadline) {
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
  await Promise.all(Array.from({ length: concurrency }, client));
  agent.destroy();
  return figures;
}

export function printFigures(label: string, figures: LoadFigures): void {
  console.log(`${label}: ${JSON.stringify(figures)}`);
}
