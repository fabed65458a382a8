/**
 * Short messages ('操作成功', the menu warnings of SPEC §5): any component calls showToast, the one
 * <ToastHost> in the layout shows the latest for a few seconds in a polite live region.
 */
import { useEffect, useState } from 'react';

type Listener = (message: string, serial: number) => void;
const listeners = new Set<Listener>();
let serial = 0;
const VISIBLE_MS = 2500;

export function showToast(message: string): void {
  serial += 1;
  for (const listener of listeners) listener(message, serial);
}

export function ToastHost() {
  const [toast, setToast] = useState<{ message: string; serial: number } | null>(null);
  useEffect(() => {
    const listener: Listener = (message, id) => setToast({ message, serial: id });
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  useEffect(() => {
    if (!toast) return;
    const timer = window.setTimeout(() => setToast(null), VISIBLE_MS);
    return () => window.clearTimeout(timer);
  }, [toast]);
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {toast && (
        <p key={toast.serial} className="toast">
          {toast.message}
        </p>
      )}
    </div>
  );
}
