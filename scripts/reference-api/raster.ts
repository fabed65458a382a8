/**
 * A tiny RGBA pixel buffer with the few filled shapes the reference pictures need (rectangles, gradients,
 * ellipses, ridges). Opaque fills only: every picture is a JPEG, so there is no alpha to keep.
 */

export type Rgb = readonly [number, number, number];

export function mix(from: Rgb, to: Rgb, amount: number): Rgb {
  const t = Math.max(0, Math.min(1, amount));
  return [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t, from[2] + (to[2] - from[2]) * t];
}

/** hue in degrees, saturation and lightness in [0, 1]. */
export function hsl(hue: number, saturation: number, lightness: number): Rgb {
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const sector = (((hue % 360) + 360) % 360) / 60;
  const second = chroma * (1 - Math.abs((sector % 2) - 1));
  const base = lightness - chroma / 2;
  const table: readonly Rgb[] = [
    [chroma, second, 0],
    [second, chroma, 0],
    [0, chroma, second],
    [0, second, chroma],
    [second, 0, chroma],
    [chroma, 0, second],
  ];
  const [r, g, b] = table[Math.min(5, Math.floor(sector))] ?? [0, 0, 0];
  return [(r + base) * 255, (g + base) * 255, (b + base) * 255];
}

export class Raster {
  readonly data: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb = [255, 255, 255],
  ) {
    this.data = new Uint8Array(width * height * 4);
    this.fillRect(0, 0, width, height, background);
  }

  private setRow(y: number, x0: number, x1: number, color: Rgb): void {
    const from = Math.max(0, Math.round(x0));
    const to = Math.min(this.width, Math.round(x1));
    let offset = (y * this.width + from) * 4;
    for (let x = from; x < to; x += 1) {
      this.data[offset] = color[0];
      this.data[offset + 1] = color[1];
      this.data[offset + 2] = color[2];
      this.data[offset + 3] = 255;
      offset += 4;
    }
  }

  private rows(y0: number, y1: number): [number, number] {
    return [Math.max(0, Math.round(y0)), Math.min(this.height, Math.round(y1))];
  }

  fillRect(x: number, y: number, width: number, height: number, color: Rgb): void {
    const [from, to] = this.rows(y, y + height);
    for (let row = from; row < to; row += 1) this.setRow(row, x, x + width, color);
  }

  /** A rectangle outline `thickness` pixels wide, drawn inside the given box. */
  strokeRect(x: number, y: number, width: number, height: number, thickness: number, color: Rgb): void {
    this.fillRect(x, y, width, thickness, color);
    this.fillRect(x, y + height - thickness, width, thickness, color);
    this.fillRect(x, y, thickness, height, color);
    this.fillRect(x + width - thickness, y, thickness, height, color);
  }

  verticalGradient(x: number, y: number, width: number, height: number, top: Rgb, bottom: Rgb): void {
    const [from, to] = this.rows(y, y + height);
    for (let row = from; row < to; row += 1) this.setRow(row, x, x + width, mix(top, bottom, (row - y) / Math.max(1, height)));
  }

  fillEllipse(cx: number, cy: number, rx: number, ry: number, color: Rgb): void {
    if (rx <= 0 || ry <= 0) return;
    const [from, to] = this.rows(cy - ry, cy + ry + 1);
    for (let row = from; row < to; row += 1) {
      const dy = (row + 0.5 - cy) / ry;
      if (Math.abs(dy) > 1) continue;
      const half = rx * Math.sqrt(1 - dy * dy);
      this.setRow(row, cx - half, cx + half, color);
    }
  }

  /** Fills, column by column, from the profile's height down to `bottom`: hills, waves, crowds of roofs. */
  fillRidge(profile: (x: number) => number, bottom: number, color: Rgb): void {
    const last = Math.min(this.height, Math.round(bottom));
    for (let x = 0; x < this.width; x += 1) {
      const first = Math.max(0, Math.round(profile(x)));
      for (let row = first; row < last; row += 1) {
        const offset = (row * this.width + x) * 4;
        this.data[offset] = color[0];
        this.data[offset + 1] = color[1];
        this.data[offset + 2] = color[2];
        this.data[offset + 3] = 255;
      }
    }
  }

  /** Copies another raster in at (x, y), clipped to this one. */
  draw(source: Raster, x: number, y: number): void {
    const left = Math.round(x);
    const top = Math.round(y);
    for (let row = 0; row < source.height; row += 1) {
      const target = top + row;
      if (target < 0 || target >= this.height) continue;
      const from = Math.max(0, -left);
      const to = Math.min(source.width, this.width - left);
      if (to <= from) return;
      const start = (row * source.width + from) * 4;
      this.data.set(source.data.subarray(start, start + (to - from) * 4), (target * this.width + left + from) * 4);
    }
  }
}
