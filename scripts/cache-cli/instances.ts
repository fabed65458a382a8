/**
 * `inspect`'s look into the running instances: each one announced in Redis (server/cache/instances.ts), plus any
 * named with --portal, is asked over HTTP whether its L1 holds the page's keys (server/internal-routes.ts). An
 * instance that does not answer is reported unreachable (a stopped one stays announced until its key expires).
 * INTERNAL_TOKEN (portals.ts's httpGet) is sent so instances on other machines answer; each ask is bounded by
 * --timeout.
 */
import type { Freshness } from '../../server/cache/entry';
import { l1Answer, type L1Answer } from '../../server/internal-routes';
import type { RedisClient } from '../../server/redis/client';
import { errorText } from './output';
import { httpGet, portalTargets, type HttpAnswer, type PortalTarget } from './portals';

export interface AskedInstance {
  /** The instance's id (from its announcement or its answer); null when it was named by --portal and did not answer. */
  id: string | null;
  url: string;
  /** announced: found in Redis; portal: named with --portal. */
  source: 'announced' | 'portal';
  host: string | null;
  pid: number | null;
  build: string | null;
  startedAt: string | null;
  /** answered, unreachable (no HTTP answer), or refused (an HTTP error: 403 without the token, …). */
  state: 'answered' | 'unreachable' | 'refused';
  error: string | null;
  /** Its L1: on, bypassed (holds copies it does not serve now), off (none); null unless it answered. */
  l1: L1Answer['l1'] | null;
}

/** One instance's copy of one key: present (with age and freshness), absent, or why it is not known. */
export interface L1Copy {
  instance: string;
  url: string;
  copy: 'present' | 'absent' | 'unreachable' | 'refused';
  ageSeconds: number | null;
  freshness: Freshness | null;
}

export interface L1Survey {
  instances: AskedInstance[];
  /** By cache key: every instance's copy, in the order of `instances`. */
  copies: Map<string, L1Copy[]>;
}

async function ask(target: PortalTarget, keys: readonly string[], timeoutSeconds: number): Promise<{ instance: AskedInstance; answer: L1Answer | null }> {
  const a = target.announced;
  const instance: AskedInstance = {
    id: a?.id ?? null,
    url: target.url,
    source: target.source,
    host: a?.host ?? null,
    pid: a?.pid ?? null,
    build: a?.build ?? null,
    startedAt: a?.startedAt ?? null,
    state: 'unreachable',
    error: null,
    l1: null,
  };
  const query = new URLSearchParams(keys.map((key) => ['key', key]));
  const url = new URL(`/_internal/l1?${query.toString()}`, target.url).href;
  let response: HttpAnswer;
  try {
    response = await httpGet(url, timeoutSeconds);
  } catch (error) {
    return { instance: { ...instance, error: errorText(error) }, answer: null };
  }
  if (response.status !== 200) return { instance: { ...instance, state: 'refused', error: `HTTP ${response.status}` }, answer: null };
  const parsed = l1Answer.safeParse(parseJson(response.text));
  if (!parsed.success) return { instance: { ...instance, state: 'refused', error: 'its answer is not an /_internal/l1 answer' }, answer: null };
  const answer = parsed.data;
  return { instance: { ...instance, id: answer.instance.id, build: answer.instance.build, state: 'answered', l1: answer.l1 }, answer };
}

export async function surveyL1(
  client: RedisClient,
  prefix: string,
  keys: readonly string[],
  portals: readonly string[],
  timeoutSeconds: number,
): Promise<L1Survey> {
  const asked = await Promise.all((await portalTargets(client, prefix, portals)).map((target) => ask(target, keys, timeoutSeconds)));
  const copies = new Map<string, L1Copy[]>(
    keys.map((key) => [
      key,
      asked.map(({ instance, answer }): L1Copy => {
        const found = answer?.entries.find((entry) => entry.key === key);
        const base = { instance: instance.id ?? instance.url, url: instance.url };
        if (!answer) return { ...base, copy: instance.state === 'refused' ? 'refused' : 'unreachable', ageSeconds: null, freshness: null };
        if (!found?.present) return { ...base, copy: 'absent', ageSeconds: null, freshness: null };
        return { ...base, copy: 'present', ageSeconds: found.ageSeconds ?? null, freshness: found.freshness ?? null };
      }),
    ]),
  );
  return { instances: asked.map(({ instance }) => instance), copies };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
