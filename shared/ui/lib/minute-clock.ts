/**
 * The browser's clock in Unix seconds, as a store React reads with `useSyncExternalStore`: read when the first
 * reader subscribes (after hydration) and again every 10 s while any reader is on screen, so relative times
 * ('3分钟前') say how long ago by the reader's clock, not by the render's, which a cached page carries for minutes.
 * Each time crosses its next minute at its own second: read once a minute, some would lag by up to a minute.
 * The server has no clock store: its readers get the render's "now" (the server snapshot), and so does hydration,
 * which then re-renders with this clock (no mismatch: React compares the server snapshot with the server HTML).
 */
import { useSyncExternalStore } from 'react';

export const CLOCK_REFRESH_MS = 10_000;

let nowSeconds = Math.floor(Date.now() / 1000);
const readers = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function readClock(): void {
  nowSeconds = Math.floor(Date.now() / 1000);
}

function tick(): void {
  readClock();
  readers.forEach((reader) => reader());
}

function subscribe(reader: () => void): () => void {
  if (readers.size === 0) {
    readClock();
    timer = setInterval(tick, CLOCK_REFRESH_MS);
  }
  readers.add(reader);
  return () => {
    readers.delete(reader);
    if (readers.size > 0) return;
    clearInterval(timer);
    timer = undefined;
  };
}

const clockNow = (): number => nowSeconds;

/** "Now" in Unix seconds: `renderNow` on the server and while hydrating, the browser's clock from then on. */
export function useMinuteClock(renderNow: number): number {
  return useSyncExternalStore(subscribe, clockNow, () => renderNow);
}
