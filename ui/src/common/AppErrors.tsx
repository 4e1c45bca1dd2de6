import { X } from "lucide-react";
import { store, useStore } from "../store";
import { ErrorBox } from "./ErrorBox";

/** Errors not tied to one server, above everything else. */
export function AppErrors() {
  const errors = useStore((s) => s.appErrors);
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
            onClick={() => store.dismissAppError(message)}
          >
            <X size={14} aria-hidden />
          </button>
        </div>
      ))}
    </div>
  );
}
