/**
 * The day with faults (`npm run day -- --faults`): one part at a time is slow, down or cut off while readers read
 * and the newsroom corrects and takes down articles (newsroom.ts sends one of each as every fault begins). Each
 * fault names the alerts the shipped rules must fire for it; the others are blips no on-call engineer should be
 * paged for, and the report checks that nothing fires for them or in the quiet minutes.
 */
import { ACK_TIMEOUT_MS } from '../../server/cache/purge-acks';
import type { EdgeStack } from '../bench/edge-stack';

export type FaultKind = 'redis-freeze' | 'redis-restart' | 'portal-freeze' | 'portal-restart' | 'cms-500' | 'cms-stall' | 'edge-restart';

export interface Fault {
  name: string;
  kind: FaultKind;
  /** How long the part is frozen, failing or slow (0: a restart, as long as it takes). */
  ms: number;
  /** The alerts of deploy/prometheus/portal-rules.yml this fault must fire (none for a blip). */
  alerts: readonly string[];
  /**
   * Alerts that may fire and say something true (a purge sent while an instance or the edge cannot acknowledge it
   * is not acknowledged), besides those it must fire; any other alert is noise.
   */
  allowed: readonly string[];
}

/** A fault as it happened: performance.now() when it began and when the part was back. */
export interface FaultWindow {
  fault: Fault;
  from: number;
  to: number;
}

/** The CMS's side of a fault: every call failing with HTTP 500, or every answer held `ms` (reference API rules). */
export interface CmsFaults {
  failing(on: boolean): void;
  slow(ms: number): void;
}

/** A run this long gets the faults at their full length; a shorter one (CI's) the same faults, shorter. */
const FULL_LENGTH_MINUTES = 10;
/** PortalRedisOutageOver15s: an outage past 15 s pages. */
const OUTAGE_ALERT_S = 15;

/**
 * The faults of one day, in order. Redis is frozen twice (4 s, 30 s) and restarted empty; one portal frozen 10 s
 * and one killed and restarted; the CMS answers 500 for 20 s and stalls 5 s; the edge is restarted.
 */
export function faultPlan(minutes: number): Fault[] {
  const scale = Math.min(1, minutes / FULL_LENGTH_MINUTES);
  const length = (ms: number) => Math.max(2000, Math.round(ms * scale));
  const longFreeze = length(30_000);
  // Longer than a purge waits for acknowledgements (purges.ts ACK_TIMEOUT_MS), so one sent as it begins misses it.
  const portalFreeze = Math.max(ACK_TIMEOUT_MS + 3000, length(10_000));
  return [
    // A stall is an outage (its command timed out): a short one pages nobody.
    { name: 'Redis frozen 4 s', kind: 'redis-freeze', ms: length(4000), alerts: [], allowed: [] },
    // The second Redis outage in 15 minutes, however short: PortalRedisOutagesRepeated; past 15 s, Over15s too.
    {
      name: `Redis frozen ${longFreeze / 1000} s`,
      kind: 'redis-freeze',
      ms: longFreeze,
      alerts: ['PortalRedisOutagesRepeated', ...(longFreeze > OUTAGE_ALERT_S * 1000 ? ['PortalRedisOutageOver15s'] : [])],
      allowed: [],
    },
    // The third: PortalRedisOutagesRepeated is firing already (it began with the second).
    { name: 'Redis restarted empty', kind: 'redis-restart', ms: 0, alerts: [], allowed: ['PortalRedisOutagesRepeated'] },
    // The correction sent as it begins is not acknowledged by the frozen instance (it applies it when it thaws).
    { name: `portal 1 frozen ${portalFreeze / 1000} s`, kind: 'portal-freeze', ms: portalFreeze, alerts: ['PortalPurgePartial'], allowed: [] },
    // The instance killed cannot acknowledge a purge sent before its successor announces itself.
    { name: 'portal 2 killed and restarted', kind: 'portal-restart', ms: 0, alerts: [], allowed: ['PortalPurgePartial'] },
    { name: `CMS answering 500 for ${length(20_000) / 1000} s`, kind: 'cms-500', ms: length(20_000), alerts: [], allowed: [] },
    { name: `CMS stalling ${length(5000) / 1000} s`, kind: 'cms-stall', ms: length(5000), alerts: [], allowed: [] },
    // One of the two edges (readers reach them through a balancer): a purge sent while it restarts is not
    // acknowledged by it (its cache is empty when it is back).
    { name: 'edge restarted', kind: 'edge-restart', ms: 0, alerts: [], allowed: ['PortalEdgePurgeUnacknowledged', 'PortalPurgePartial'] },
  ];
}

/** Carries out `fault` on the stack; resolves when the part is back. */
export async function inject(stack: EdgeStack, fault: Fault, cms: CmsFaults): Promise<void> {
  switch (fault.kind) {
    case 'redis-freeze':
      return stack.freeze({ part: 'redis' }, fault.ms);
    case 'redis-restart':
      return stack.restartRedis();
    case 'portal-freeze':
      return stack.freeze({ part: 'portal', index: 0 }, fault.ms);
    case 'portal-restart':
      return stack.restartPortal(1);
    case 'cms-500':
      return during(
        fault.ms,
        () => cms.failing(true),
        () => cms.failing(false),
      );
    case 'cms-stall':
      return during(
        fault.ms,
        () => cms.slow(fault.ms),
        () => cms.slow(0),
      );
    case 'edge-restart':
      return stack.restartEdge();
  }
}

async function during(ms: number, begin: () => void, end: () => void): Promise<void> {
  begin();
  try {
    await new Promise((resolve) => setTimeout(resolve, ms));
  } finally {
    end();
  }
}

/** When in the run (a fraction of it) each of `count` faults begins: spread over its middle, quiet minutes around. */
export function faultMoments(count: number): number[] {
  const first = 0.12;
  const last = 0.85;
  return Array.from({ length: count }, (_, index) => first + ((last - first) * index) / Math.max(1, count - 1));
}
