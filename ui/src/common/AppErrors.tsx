import { X } from "lucide-react";
import { useTranslation } from "react-i18next";
import { ErrorBox } from "./ErrorBox";
import { dismissAppError, useConnections } from "../state/connections";

/** Errors not tied to one server, above everything else. */
export function AppErrors() {
  const { t } = useTranslation("common");
  const errors = useConnections((s) => s.appErrors);
  if (errors.length === 0) return null;
  return (
    <div className="app-errors">
      {errors.map((message) => (
        <div key={message} className="app-error">
          <ErrorBox message={message} />
          <button
            type="button"
            className="icon-button"
            aria-label={t("dismiss")}
            title={t("dismiss")}
            onClick={() => dismissAppError(message)}
          >
            <X size={14} aria-hidden />
          </button>
        </div>
      ))}
    </div>
  );
}
