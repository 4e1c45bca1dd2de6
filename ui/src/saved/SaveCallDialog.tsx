import { useTranslation } from "react-i18next";
import { ErrorBox } from "../common/ErrorBox";
import { Dialog } from "../dialog/Dialog";
import { pretty } from "../json";
import { kindLabel } from "./logic";
import { closeDialog, confirmDialog, setDialogName, useSaved } from "../state/saved";

/** Asks for the name of a call being saved (opened by `saveCallDialog`). */
export function SaveCallDialog() {
  const { t } = useTranslation(["saved", "common"]);
  const dialog = useSaved((s) => s.dialog);
  if (!dialog) return null;
  return (
    <Dialog
      title={t("dialog.title")}
      onClose={closeDialog}
      testId="save-call-dialog"
      bodyClassName="saved-dialog-body"
      onSubmit={(e) => {
        e.preventDefault();
        void confirmDialog();
      }}
      aside={
        dialog.error && (
          <div className="modal-errors">
            <ErrorBox message={dialog.error} />
          </div>
        )
      }
      dismiss={{ label: t("common:cancel") }}
      footer={
        <button type="submit" className="button button-primary" data-testid="save-call-confirm">
          {t("common:save")}
        </button>
      }
    >
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
    </Dialog>
  );
}
