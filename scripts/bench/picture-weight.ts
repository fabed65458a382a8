/**
 * Page weight at a phone's width with pictures as a real CMS serves them (REFERENCE_IMAGES=one-size): the built
 * portal with the resizer off (every picture as the CMS sends it) and on (IMAGE_RESIZER=embedded), home and an
 * article at 390×844, 3x, in Chromium, scrolled to the end so every lazy picture loads. Prints the bytes of the
 * document, the scripts, the pictures and all, per page and mode. Run: `node scripts/run-ts.mjs
 * scripts/bench/picture-weight.ts` after a build (docs/images.md "Figures").
 */
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { DESKTOP_UA, firstLink, startBuiltPortal } from './measured-pages';

const ROOT = path.resolve(__dirname, '../..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

interface Weight {
  document: number;
  scripts: number;
  pictures: number;
  pictureCount: number;
  all: number;
}

async function weighPage(page: Page, url: string): Promise<Weight> {
  const weight: Weight = { document: 0, scripts: 0, pictures: 0, pictureCount: 0, all: 0 };
  const pending: Array<Promise<void>> = [];
  page.on('requestfinished', (request) => {
    pending.push(
      request.sizes().then((sizes) => {
        const bytes = sizes.responseBodySize + sizes.responseHeadersSize;
        weight.all += bytes;
        const type = request.resourceType();
        if (type === 'document') weight.document += bytes;
        if (type === 'script') weight.scripts += bytes;
        if (type === 'image') {
          weight.pictures += bytes;
          weight.pictureCount += 1;
        }
      }),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  // Down the page a screen at a time, so every lazy picture is asked for, then until nothing is loading.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 700) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(150);
  }
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  return weight;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)}`;

async function main(): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const lines = ['| page | resizer | document KiB | scripts KiB | pictures KiB (count) | all KiB |', '|---|---|---:|---:|---:|---:|'];
  try {
    for (const resizer of ['off', 'embedded']) {
      const portal = await startBuiltPortal(path.join(ROOT, 'dist/server/main.cjs'), { REFERENCE_IMAGES: 'one-size', IMAGE_RESIZER: resizer });
      try {
        const article = await firstLink(`${portal.url}/`, /\/detail\/\d+\/\d+/);
        for (const [name, pagePath] of [
          ['home', '/'],
          ['article', article],
        ] as const) {
          const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, userAgent: DESKTOP_UA });
          const page = await context.newPage();
          const weight = await weighPage(page, portal.url + pagePath);
          await context.close();
          lines.push(
            `| ${name} | ${resizer} | ${kib(weight.document)} | ${kib(weight.scripts)} | ${kib(weight.pictures)} (${weight.pictureCount}) | ${kib(weight.all)} |`,
          );
        }
      } finally {
        portal.stop();
      }
    }
  } finally {
    await browser.close();
  }
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
