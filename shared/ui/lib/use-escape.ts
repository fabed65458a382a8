/**
 * Escape closes an open panel however it was opened. The key is listened for on the document while the panel is
 * open, since a panel opened by the pointer leaves focus anywhere on the page. A handler nearer the focus that
 * has already spent the key (a menu's panel inside the phone menu) wins, and `close` spends it in turn, so one
 * Escape closes one panel.
 */
import { useEffect, useRef } from 'react';

export function useEscape(open: boolean, close: () => void): void {
  // The latest `close`, so the listener is added once per opening, not once per render.
  const latest = useRef(close);
  latest.current = close;
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      latest.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open]);
}
