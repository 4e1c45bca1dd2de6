import { X } from "lucide-react";
import { useTranslation } from "react-i18next";
import { ErrorBox } from "../common/ErrorBox";
import { pretty } from "../json";
import { kindLabel } from "./logic";
import { closeDialog, confirmDialog, setDialogName, useSaved } from "../state/saved";

/** Asks for the name of a call being saved (opened by `saveCallDialog`). */
export function SaveCallDialog() {
  const { t } = useTranslation(["saved", "common"]);
  const dialog = useSaved((s) => s.dialog);
  if (!dialog) return null;
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && closeDialog()}>
      <form
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-label={t("dialog.title")}
        data-testid="save-call-dialog"
        onSubmit={(e) => {
          e.preventDefault();
          void confirmDialog();
        }}
      >
        <header className="modal-header">
          <h2>{t("dialog.title")}</h2>
          <button
            type="button"
            className="icon-button"
            onClick={closeDialog}
            aria-label={t("common:close")}
            title={t("common:close")}
          >
            <X size={16} aria-hidden />
          </button>
        </header>
        <div className="modal-body saved-dialog-body">
          <label className="field">
            <span className="field-label">{t("common:name")}</span>
            <input
              data-testid="save-call-name"
              value={dialog.name}
              onChange={(e) => setDialogName(e.target.value)}
              autoFocus
              onFocus={(e) => e.target.select()}
            />
          </label>
          <p className="muted">
            {kindLabel(dialog.kind)} <span className="mono">{dialog.target}</span>
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
            {t("common:cancel")}
          </button>
          <button type="submit" className="button button-primary" data-testid="save-call-confirm">
            {t("common:save")}
          </button>
        </footer>
      </form>
    </div>
  );
}
