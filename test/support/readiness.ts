/** What each portal's /readyz says of Redis and L1, waited on until every portal says what a test needs. */
import { eventually } from '../server/cache/redis-helpers';
import type { TestPortal } from './portal';

export interface ReadinessChecks {
  redis?: string;
  l1?: string;
}

export async function readinessChecks(portal: TestPortal): Promise<ReadinessChecks> {
  return ((await (await fetch(`${portal.url}/readyz`)).json()) as { checks: ReadinessChecks }).checks;
}

/** Until every portal's checks pass `accept` (20 s each at most); the error names the portal and what it said. */
export async function untilEvery(portals: readonly TestPortal[], accept: (checks: ReadinessChecks) => boolean, what: string): Promise<void> {
  for (const portal of portals) {
    const checks = await eventually(() => readinessChecks(portal), accept, 20_000);
    if (!accept(checks)) throw new Error(`${portal.url}: not ${what} within 20 s: ${JSON.stringify(checks)}`);
  }
}
