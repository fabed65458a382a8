/**
 * Short messages ('操作成功', the menu warnings of docs/product.md §5): any component calls showToast, the one
 * <ToastHost> in the layout shows the latest for a few seconds in a polite live region. The region is a manual
 * popover, raised again with each message: the top layer is the only place above an open modal <dialog> (the
 * share dialog's '复制链接' → '操作成功'), which no z-index can beat.
 */
import { useEffect, useRef, useState } from 'react';

type Listener = (message: string, serial: number) => void;
const listeners = new Set<Listener>();
let serial = 0;
const VISIBLE_MS = 2500;

export function showToast(message: string): void {
  serial += 1;
  for (const listener of listeners) listener(message, serial);
}

/** Puts the region on top of the top layer (above any dialog opened since it was last shown). */
function raiseToTopLayer(element: HTMLDivElement | null): void {
  if (!element || typeof element.showPopover !== 'function') return;
  if (element.matches(':popover-open')) element.hidePopover();
  element.showPopover();
}

export function ToastHost() {
  const [toast, setToast] = useState<{ message: string; serial: number } | null>(null);
  const region = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const listener: Listener = (message, id) => setToast({ message, serial: id });
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  useEffect(() => {
    if (!toast) return;
    raiseToTopLayer(region.current);
    const timer = window.setTimeout(() => setToast(null), VISIBLE_MS);
    return () => window.clearTimeout(timer);
  }, [toast]);
  return (
    <div ref={region} className="toast-region" role="status" aria-live="polite" popover="manual">
      {toast && (
        <p key={toast.serial} className="toast">
          {toast.message}
        </p>
      )}
    </div>
  );
}
