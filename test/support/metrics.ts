/** Reading a portal's /metrics (Prometheus text) in tests. */
import request from 'supertest';

/** The text /metrics of the portal at `url` answers now. */
export async function scrape(url: string): Promise<string> {
  const res = await request(url).get('/metrics');
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  return res.text;
}

/**
 * The value of the sample `name` whose labels include every one of `labels` (summed when several match), or
 * undefined when no such series is listed at all: a test can tell "0" from "absent".
 */
export function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let total: number | undefined;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const own = new Map([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((label) => [label[1]!, label[2]!]));
    if (Object.entries(labels).some(([label, value]) => own.get(label) !== value)) continue;
    total = (total ?? 0) + Number(match[3]);
  }
  return total;
}
