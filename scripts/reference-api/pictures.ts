/**
 * The reference API's photographs, drawn rather than downloaded: a sky over a horizon with hills, a city skyline,
 * a crowd of people, a chart, or a portrait, each painted from a seed so the same key always gives the same
 * picture, and tinted by the category's hue so a channel's pictures share a palette. Also the e-paper page: a
 * broadsheet with a masthead, and one bordered block per clickable article area (headline bar, columns of text
 * lines, a photo in the lead story) at exactly the area's coordinates.
 */
import { createRng, type Rng } from './random';
import { hsl, mix, Raster, type Rgb } from './raster';

export const PICTURE_KINDS = ['landscape', 'skyline', 'crowd', 'chart', 'portrait'] as const;
export type PictureKind = (typeof PICTURE_KINDS)[number];

export interface PictureSpec {
  kind: PictureKind;
  /** Varies the composition: one per picture key. */
  seed: number;
  /** Base hue in degrees: one per category or channel. */
  hue: number;
}

export interface PageBlock {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PageSpec {
  seed: number;
  /** Coordinate space of `blocks` (the page's declared size); the image may be drawn at any other size. */
  pageWidth: number;
  pageHeight: number;
  blocks: readonly PageBlock[];
}

const PAPER: Rgb = [246, 243, 234];
const INK: Rgb = [28, 28, 30];
const TEXT_GREY: Rgb = [150, 150, 150];
const RULE: Rgb = [120, 120, 120];

export function paintPicture(spec: PictureSpec, width: number, height: number): Raster {
  const rng = createRng(spec.seed);
  const raster = new Raster(width, height);
  if (spec.kind === 'chart') paintChart(raster, rng, spec.hue);
  else if (spec.kind === 'portrait') paintPortrait(raster, rng, spec.hue);
  else {
    const horizon = paintSky(raster, rng, spec.hue);
    if (spec.kind === 'skyline') paintSkyline(raster, rng, spec.hue, horizon);
    else paintHills(raster, rng, spec.hue, horizon);
    if (spec.kind === 'crowd') paintCrowd(raster, rng, spec.hue);
  }
  return raster;
}

/** Sky gradient (day, dusk or night by the seed), a sun or moon, and the ground below; returns the horizon's y. */
function paintSky(raster: Raster, rng: Rng, hue: number): number {
  const { width, height } = raster;
  const horizon = height * (0.5 + rng.next() * 0.18);
  const mood = rng.int(0, 2);
  const skyTop = [hsl(205 + hue / 12, 0.65, 0.55), hsl(260, 0.45, 0.35), hsl(230, 0.5, 0.14)][mood] ?? INK;
  const skyBottom = [hsl(195, 0.55, 0.85), hsl(25 + hue / 20, 0.85, 0.68), hsl(225, 0.45, 0.32)][mood] ?? INK;
  raster.verticalGradient(0, 0, width, horizon, skyTop, skyBottom);
  const radius = Math.min(width, height) * (0.06 + rng.next() * 0.05);
  const sun = mood === 2 ? hsl(55, 0.3, 0.9) : hsl(45, 0.95, mood === 1 ? 0.62 : 0.8);
  raster.fillEllipse(width * (0.15 + rng.next() * 0.7), horizon * (0.25 + rng.next() * 0.45), radius, radius, sun);
  raster.verticalGradient(0, horizon, width, height - horizon, hsl(hue, 0.35, 0.36), hsl(hue, 0.4, 0.18));
  return horizon;
}

function paintHills(raster: Raster, rng: Rng, hue: number, horizon: number): void {
  const { width, height } = raster;
  for (let layer = 0; layer < 3; layer += 1) {
    const amplitude = height * (0.1 - layer * 0.025);
    const phase = rng.next() * Math.PI * 2;
    const frequency = (1.5 + rng.next() * 2.5) / width;
    const base = horizon - amplitude * 0.4 + layer * height * 0.06;
    const color = hsl(hue + 90 - layer * 15, 0.35, 0.5 - layer * 0.11);
    raster.fillRidge(
      (x) => base - amplitude * (0.6 + 0.4 * Math.sin(x * frequency * Math.PI * 2 + phase)) * (0.75 + 0.25 * Math.sin(x * frequency * 7 + phase)),
      height,
      color,
    );
  }
  // A road narrowing to the horizon gives the picture depth.
  const roadColor = hsl(hue, 0.08, 0.42);
  const vanish = width * (0.3 + rng.next() * 0.4);
  const roadTop = horizon + height * 0.08;
  for (let row = Math.round(roadTop); row < height; row += 1) {
    const t = (row - roadTop) / Math.max(1, height - roadTop);
    const half = width * (0.01 + t * 0.28);
    raster.fillRect(vanish + (width / 2 - vanish) * t - half, row, half * 2, 1, roadColor);
  }
}

function paintSkyline(raster: Raster, rng: Rng, hue: number, horizon: number): void {
  const { width, height } = raster;
  for (let layer = 0; layer < 2; layer += 1) {
    const color = layer === 0 ? hsl(hue + 200, 0.15, 0.45) : hsl(hue + 210, 0.2, 0.2);
    const lit = hsl(48, 0.9, 0.7);
    let x = -rng.int(0, 20);
    while (x < width) {
      const buildingWidth = width * (0.04 + rng.next() * (layer === 0 ? 0.05 : 0.08));
      const buildingHeight = height * (0.12 + rng.next() * (layer === 0 ? 0.3 : 0.4));
      const top = horizon + layer * height * 0.05 - buildingHeight;
      raster.fillRect(x, top, buildingWidth, height - top, color);
      if (layer === 1) paintWindows(raster, rng, x, top, buildingWidth, horizon + height * 0.05 - top, lit);
      x += buildingWidth + rng.int(0, Math.max(1, Math.round(width * 0.01)));
    }
  }
}

function paintWindows(raster: Raster, rng: Rng, x: number, y: number, width: number, height: number, color: Rgb): void {
  // Windows keep a storey's proportion to the picture, however wide a building is.
  const size = Math.max(2, Math.round(Math.min(width / 9, raster.height / 28)));
  for (let row = y + size; row < y + height - size; row += size * 2) {
    for (let column = x + size; column < x + width - size; column += size * 2) {
      if (rng.chance(0.45)) raster.fillRect(column, row, size, size, color);
    }
  }
}

/** People seen from behind: shoulders as an ellipse, a head above, darker and larger towards the viewer. */
function paintCrowd(raster: Raster, rng: Rng, hue: number): void {
  const { width, height } = raster;
  const count = rng.int(5, 11);
  for (let index = 0; index < count; index += 1) {
    const depth = index / count;
    const scale = height * (0.1 + depth * 0.14);
    const cx = width * rng.next();
    const base = height * (0.78 + depth * 0.24);
    const coat = hsl(hue + rng.int(-40, 40), 0.35 + rng.next() * 0.3, 0.15 + (1 - depth) * 0.25);
    raster.fillEllipse(cx, base, scale * 0.55, scale * 0.8, coat);
    raster.fillEllipse(cx, base - scale * 1.05, scale * 0.3, scale * 0.36, hsl(25, 0.35, 0.18 + (1 - depth) * 0.2));
  }
}

function paintChart(raster: Raster, rng: Rng, hue: number): void {
  const { width, height } = raster;
  raster.verticalGradient(0, 0, width, height, [250, 250, 248], hsl(hue, 0.2, 0.92));
  const left = width * 0.1;
  const bottom = height * 0.86;
  const plotWidth = width * 0.82;
  const plotHeight = height * 0.7;
  const line = Math.max(1, Math.round(height / 200));
  for (let grid = 1; grid <= 4; grid += 1) raster.fillRect(left, bottom - (plotHeight * grid) / 4, plotWidth, line, [215, 215, 215]);
  const bars = rng.int(5, 9);
  const slot = plotWidth / bars;
  const palette = [hsl(hue, 0.65, 0.45), hsl(hue + 150, 0.55, 0.5)];
  for (let bar = 0; bar < bars; bar += 1) {
    const value = 0.2 + rng.next() * 0.78;
    raster.fillRect(left + slot * (bar + 0.18), bottom - plotHeight * value, slot * 0.64, plotHeight * value, palette[bar % 3 === 2 ? 1 : 0] ?? INK);
  }
  raster.fillRect(left, bottom, plotWidth, line * 2, INK);
  raster.fillRect(left, bottom - plotHeight, line * 2, plotHeight, INK);
  // A title bar across the top, as infographics have.
  raster.fillRect(left, height * 0.05, width * (0.35 + rng.next() * 0.3), Math.max(2, height * 0.05), hsl(hue, 0.5, 0.3));
}

/** Head and shoulders against a soft studio background: the column authors' and users' pictures. */
function paintPortrait(raster: Raster, rng: Rng, hue: number): void {
  const { width, height } = raster;
  raster.verticalGradient(0, 0, width, height, hsl(hue, 0.3, 0.82), hsl(hue, 0.35, 0.6));
  const cx = width * (0.45 + rng.next() * 0.1);
  const skin = hsl(25 + rng.int(-5, 8), 0.45, 0.55 + rng.next() * 0.2);
  const hair = hsl(rng.int(15, 35), 0.3, 0.08 + rng.next() * 0.25);
  raster.fillEllipse(cx, height * 1.02, width * 0.42, height * 0.36, hsl(hue + rng.int(120, 240), 0.35, 0.28));
  raster.fillRect(cx - width * 0.07, height * 0.55, width * 0.14, height * 0.14, mix(skin, INK, 0.12));
  raster.fillEllipse(cx, height * 0.32 + height * 0.06, width * 0.2, height * 0.21, hair);
  raster.fillEllipse(cx, height * 0.42, width * 0.17, height * 0.21, skin);
  raster.fillEllipse(cx, height * 0.27, width * 0.18, height * 0.08, hair);
}

/** The e-paper page image: masthead, then each block bordered with a headline bar and columns of text lines. */
export function paintNewspaperPage(spec: PageSpec, width: number, height: number): Raster {
  const raster = new Raster(width, height, PAPER);
  const sx = width / spec.pageWidth;
  const sy = height / spec.pageHeight;
  const rng = createRng(spec.seed);
  paintMasthead(raster, rng, sx, sy, spec.pageWidth);
  spec.blocks.forEach((block, index) => {
    paintArticleBlock(raster, rng, { x: block.x * sx, y: block.y * sy, width: block.width * sx, height: block.height * sy }, index === 0);
  });
  return raster;
}

function paintMasthead(raster: Raster, rng: Rng, sx: number, sy: number, pageWidth: number): void {
  const margin = 60 * sx;
  raster.fillRect(margin, 50 * sy, (pageWidth * 0.45 + rng.int(0, 120)) * sx, 80 * sy, INK);
  raster.fillRect((pageWidth - 320) * sx, 70 * sy, 260 * sx, 14 * sy, RULE);
  raster.fillRect((pageWidth - 320) * sx, 100 * sy, 200 * sx, 14 * sy, RULE);
  raster.fillRect(margin, 160 * sy, (pageWidth - 120) * sx, Math.max(2, 6 * sy), INK);
  raster.fillRect(margin, 176 * sy, (pageWidth - 120) * sx, Math.max(1, 2 * sy), INK);
}

function paintArticleBlock(raster: Raster, rng: Rng, block: PageBlock, lead: boolean): void {
  const scale = raster.width / 1200;
  const pad = 16 * scale;
  raster.strokeRect(block.x, block.y, block.width, block.height, Math.max(1, Math.round(2 * scale)), RULE);
  const headline = Math.min(56 * scale, block.height * 0.2);
  raster.fillRect(block.x + pad, block.y + pad, (block.width - 2 * pad) * (0.55 + rng.next() * 0.35), headline, INK);
  let top = block.y + pad * 2 + headline;
  raster.fillRect(block.x + pad, top, (block.width - 2 * pad) * (0.3 + rng.next() * 0.3), headline * 0.35, TEXT_GREY);
  top += headline * 0.35 + pad;
  const columns = block.width > 700 * scale ? 4 : 3;
  const gutter = 24 * scale;
  const columnWidth = (block.width - 2 * pad - gutter * (columns - 1)) / columns;
  const bottom = block.y + block.height - pad;
  for (let column = 0; column < columns; column += 1) {
    const x = block.x + pad + column * (columnWidth + gutter);
    let y = top;
    if (lead && column < 2) {
      const photoHeight = Math.min(bottom - y, columnWidth * 0.8);
      const photoWidth = columnWidth * 2 + gutter;
      if (column === 0 && photoHeight > 8) {
        const photo = paintPicture({ kind: 'crowd', seed: rng.int(0, 2 ** 31), hue: rng.int(0, 359) }, Math.round(photoWidth), Math.round(photoHeight));
        raster.draw(photo, x, y);
      }
      y += photoHeight + pad;
    }
    paintTextLines(raster, x, y, columnWidth, bottom, scale);
  }
}

function paintTextLines(raster: Raster, x: number, y: number, width: number, bottom: number, scale: number): void {
  const lineHeight = Math.max(3, 18 * scale);
  const stroke = Math.max(1, Math.round(7 * scale));
  let line = 0;
  for (let row = y; row + stroke <= bottom; row += lineHeight) {
    // Paragraph ends are short lines, as in set type.
    const length = line % 7 === 6 ? width * 0.55 : width;
    raster.fillRect(x, row, length, stroke, TEXT_GREY);
    line += 1;
  }
}
