#!/usr/bin/env node
// Renders public/favicon.svg with Debian's Chromium to public/logo.png (512×512: the raster logo that WeChat
// share cards and JSON-LD publisher logos need, neither accepts SVG) and public/favicon.ico (16, 32 and 48 px
// PNG entries: what browsers, feed readers and crawlers ask for at /favicon.ico without reading the page).
// Run again after changing the SVG: `node scripts/make-logo-png.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOGO_SIZE = 512;
const ICON_SIZES = [16, 32, 48];
const svg = readFileSync(path.join(root, 'public/favicon.svg'), 'utf8');

/** An ICO file whose entries are PNG images (read by every browser since IE Vista-era). */
function icoOf(pngs) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(pngs.length, 4);
  const directory = Buffer.alloc(16 * pngs.length);
  let offset = header.length + directory.length;
  pngs.forEach(({ size, bytes }, index) => {
    const at = index * 16;
    directory.writeUInt8(size, at);
    directory.writeUInt8(size, at + 1);
    directory.writeUInt16LE(1, at + 4);
    directory.writeUInt16LE(32, at + 6);
    directory.writeUInt32LE(bytes.length, at + 8);
    directory.writeUInt32LE(offset, at + 12);
    offset += bytes.length;
  });
  return Buffer.concat([header, directory, ...pngs.map((png) => png.bytes)]);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function render(size) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<html><body style="margin:0">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
  // eslint-disable-next-line no-undef -- runs in the page, where document exists
  await page.evaluate(() => document.fonts.ready);
  const png = await page.screenshot({ clip: { x: 0, y: 0, width: size, height: size }, omitBackground: true });
  await page.close();
  return png;
}

try {
  const logo = await render(LOGO_SIZE);
  writeFileSync(path.join(root, 'public/logo.png'), logo);
  console.log(`public/logo.png: ${LOGO_SIZE}×${LOGO_SIZE}, ${logo.length} bytes`);
  const icons = [];
  for (const size of ICON_SIZES) icons.push({ size, bytes: await render(size) });
  const ico = icoOf(icons);
  writeFileSync(path.join(root, 'public/favicon.ico'), ico);
  console.log(`public/favicon.ico: ${ICON_SIZES.join(', ')} px, ${ico.length} bytes`);
} finally {
  await browser.close();
}
