import { X } from "lucide-react";
import { ErrorBox } from "./ErrorBox";
import { dismissAppError, useConnections } from "../state/connections";

/** Errors not tied to one server, above everything else. */
export function AppErrors() {
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
            aria-label="Dismiss"
            title="Dismiss"
            onClick={() => dismissAppError(message)}
          >
            <X size={14} aria-hidden />
          </button>
        </div>
      ))}
    </div>
  );
}
