/** Debian's Chromium driven by playwright-core, with the flags this machine needs (no sandbox, no background networking). */
import { chromium, type Browser } from 'playwright-core';
import { chromiumPath } from './requirements';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}
