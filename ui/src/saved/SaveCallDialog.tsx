import { X } from "lucide-react";
import { ErrorBox } from "../common/ErrorBox";
import { pretty } from "../json";
import { KIND_LABEL } from "./logic";
import { closeDialog, confirmDialog, setDialogName, useSaved } from "../state/saved";

/** Asks for the name of a call being saved (opened by `saveCallDialog`). */
export function SaveCallDialog() {
  const dialog = useSaved((s) => s.dialog);
  if (!dialog) return null;
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && closeDialog()}>
      <form
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-label="Save call"
        data-testid="save-call-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void confirmDialog();
        }}
      >
        <header className="modal-header">
          <h2>Save call</h2>
          <button type="button" className="icon-button" onClick={closeDialog} aria-label="Close" title="Close">
            <X size={16} aria-hidden />
          </button>
        </header>
        <div className="modal-body saved-dialog-body">
          <label className="field">
            <span className="field-label">Name</span>
            <input
              data-testid="save-call-name"
              value={dialog.name}
              onChange={(e) => setDialogName(e.target.value)}
              autoFocus
              onFocus={(e) => e.target.select()}
            />
          </label>
          <p className="muted">
            {KIND_LABEL[dialog.kind]} <span className="mono">{dialog.target}</span>
          </p>
          {dialog.kind !== "resource" && <pre className="code-block saved-args">{pretty(dialog.args)}</pre>}
        </div>
        {dialog.error && (
          <div className="modal-errors">
            <ErrorBox message={dialog.error} />
          </div>
        )}
        <footer className="modal-footer">
          <button type="button" className="button" onClick={closeDialog}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" data-testid="save-call-confirm">
            Save
          </button>
        </footer>
      </form>
    </div>
  );
}
