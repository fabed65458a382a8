#!/usr/bin/env node
// Renders public/favicon.svg to public/logo.png (512×512) with Debian's Chromium: the raster logo that WeChat
// share cards and JSON-LD publisher logos need (neither accepts SVG). Run again after changing the SVG:
// `node scripts/make-logo-png.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SIZE = 512;
const svg = readFileSync(path.join(root, 'public/favicon.svg'), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE } });
  await page.setContent(`<html><body style="margin:0">${svg.replace('<svg ', `<svg width="${SIZE}" height="${SIZE}" `)}</body></html>`);
  await page.evaluate(() => document.fonts.ready);
  const png = await page.screenshot({ clip: { x: 0, y: 0, width: SIZE, height: SIZE }, omitBackground: true });
  writeFileSync(path.join(root, 'public/logo.png'), png);
  console.log(`public/logo.png: ${SIZE}×${SIZE}, ${png.length} bytes`);
} finally {
  await browser.close();
}
