import { useEffect, useId, useRef, type ReactNode } from 'react';

interface Props {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Red confirm button for things that cannot be undone. */
  danger?: boolean;
  busy?: boolean;
  /** The confirm button is off (the step cannot be taken now; `error` says why); Cancel stays. */
  confirmDisabled?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  testId?: string;
}

/**
 * A modal confirmation on the native <dialog>: focus is trapped and
 * restored by the browser, Escape cancels, the rest of the page is inert.
 * Focus starts on Cancel so Enter never confirms a destructive step by accident.
 */
export function ConfirmDialog(props: Props) {
  const { open, title, children, confirmLabel, danger, busy, error, onConfirm, onCancel } = props;
  const confirmOff = busy || props.confirmDisabled;
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      cancelRef.current?.focus();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      data-testid={props.testId ?? 'confirm-dialog'}
      onCancel={(e) => {
        e.preventDefault(); // React state decides when it closes
        if (!busy) onCancel();
      }}
    >
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          <div id={bodyId} className="dialog-body">
            {children}
          </div>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <div className="actions">
            <button
              type="button"
              className={danger ? 'danger' : 'primary'}
              disabled={confirmOff}
              onClick={onConfirm}
              data-testid="confirm-yes"
            >
              {confirmLabel}
            </button>
            <button type="button" ref={cancelRef} disabled={busy} onClick={onCancel}>
              Cancel
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
