// The buttons of a confirmation dialog: "Odustani" (focused when the dialog opens, so Enter never
// confirms by accident) and the action itself.
import type { ReactNode } from "react";

interface Props {
  onCancel: () => void;
  /** Omitted for a form's submit button. */
  onConfirm?: () => void;
  confirm: ReactNode;
  disabled: boolean;
  testId: string;
  /** A destructive action (red); otherwise the primary button. */
  danger?: boolean;
  /** False where a field of the dialog takes the focus first. */
  focusCancel?: boolean;
}

export function DialogActions({ onCancel, onConfirm, confirm, disabled, testId, danger = true, focusCancel = true }: Props) {
  return (
    <div className="row-actions">
      <button type="button" className="btn secondary" onClick={onCancel} autoFocus={focusCancel}>
        Odustani
      </button>
      <button type={onConfirm ? "button" : "submit"} className={danger ? "btn danger" : "btn"} onClick={onConfirm} disabled={disabled} data-testid={testId}>
        {confirm}
      </button>
    </div>
  );
}
