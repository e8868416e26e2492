import { useEffect, useId, useRef, type ReactNode } from 'react';

interface DialogProps {
  title: string;
  children: ReactNode;
  /** Escape / backdrop close; omit to make the dialog require an explicit choice. */
  onDismiss?: () => void;
  role?: 'dialog' | 'alertdialog';
  className?: string;
}

/** Modal dialog: focus moves in, Tab stays inside, focus returns to the opener on close. */
export function Dialog({ title, children, onDismiss, role = 'dialog', className }: DialogProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const node = ref.current;
    const focusables = () =>
      Array.from(
        node?.querySelectorAll<HTMLElement>('button:not([disabled]), input:not([disabled]), textarea, select, a[href], [tabindex]:not([tabindex="-1"])') ?? [],
      );
    (node?.querySelector<HTMLElement>('[data-autofocus]') ?? focusables()[0] ?? node)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && onDismiss) {
        e.preventDefault();
        onDismiss();
      }
      if (e.key === 'Tab') {
        const list = focusables();
        if (list.length === 0) return;
        const first = list[0];
        const last = list[list.length - 1];
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      opener?.focus?.();
    };
  }, []);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onDismiss?.()}>
      <div ref={ref} className={`modal dash-modal ${className ?? ''}`} role={role} aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <h2 id={titleId} className="dash-modal__title">
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}

interface ConfirmProps {
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  busy?: boolean;
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** Confirmation prompt (delete agent, revoke key, remove member). */
export function ConfirmDialog({ title, message, confirmLabel, cancelLabel, busy, danger, onConfirm, onCancel }: ConfirmProps) {
  return (
    <Dialog title={title} onDismiss={busy ? undefined : onCancel} role="alertdialog">
      <p className="dash-modal__text">{message}</p>
      <div className="dash-modal__actions">
        <button type="button" className="btn btn--ghost" onClick={onCancel} disabled={busy} data-autofocus>
          {cancelLabel}
        </button>
        <button type="button" className={`btn ${danger ? 'btn--danger' : 'btn--primary'}`} onClick={onConfirm} disabled={busy}>
          {busy && <span className="spinner spinner--light" aria-hidden="true" />}
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

/** Labelled progress bar (role=progressbar, 0..100). */
export function ProgressBar({ value, label, testId }: { value: number; label: string; testId?: string }) {
  const v = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div className="dash-progress" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={v} data-testid={testId}>
      <div className="dash-progress__bar" style={{ width: `${v}%` }} />
    </div>
  );
}
