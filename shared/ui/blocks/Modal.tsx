/**
 * A modal on the native <dialog>: the browser gives it focus trapping, Escape to close and the inert page
 * behind, which a hand-made overlay would have to imitate.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';

export function Modal(props: { open: boolean; title: string; width: number; onClose: () => void; children: ReactNode; className?: string }) {
  const { open, title, width, onClose, children, className } = props;
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`modal ${className ?? ''}`}
      style={{ width }}
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes it.
        if (event.target === ref.current) onClose();
      }}
    >
      <div className="modal__content">
        <header className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          <button type="button" className="modal__close" aria-label="关闭" onClick={onClose}>
            ×
          </button>
        </header>
        {open && children}
      </div>
    </dialog>
  );
}
