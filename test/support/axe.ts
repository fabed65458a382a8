/** axe-core in a real page: the serious and critical findings, one line each, for a test to expect none of. */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

let axeSource: string | undefined;

/**
 * Puts axe-core in the page through the DevTools protocol, which the page's CSP does not govern: as a script tag
 * it would be an inline script the portal's CSP rightly refuses, and a context bypassing CSP would hide the CSP
 * errors the other checks on the same visit look for (sweep.ts).
 */
async function injectAxe(page: Page): Promise<void> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const session = await page.context().newCDPSession(page);
  try {
    const { exceptionDetails } = (await session.send('Runtime.evaluate', { expression: axeSource })) as { exceptionDetails?: { text: string } };
    if (exceptionDetails) throw new Error(`axe-core did not load: ${exceptionDetails.text}`);
  } finally {
    await session.detach();
  }
}

/** Serious or critical axe-core violations of the page as it is now. */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  await injectAxe(page);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return (violations as AxeViolation[])
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.help}) at ${JSON.stringify(violation.nodes.slice(0, 3).map((node) => node.target))}`);
}
