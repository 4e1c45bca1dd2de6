import { FolderOpen, X } from "lucide-react";
import { useEffect, useState } from "react";
import type { AppSettings } from "../bindings/AppSettings";
import type { DataPlaces } from "../bindings/DataPlaces";
import type { EraChoice } from "../bindings/EraChoice";
import type { Theme } from "../bindings/Theme";
import { CopyButton } from "../common/CopyButton";
import { ErrorBox } from "../common/ErrorBox";
import { errorMessage, settingsIpc } from "../ipc";
import { historyClearedEverywhere } from "../state/saved";
import { appSettings, setAppSettings, timeoutProblem } from "./appSettings";

interface Props {
  onClose: () => void;
}

const THEMES: { value: Theme; label: string }[] = [
  { value: "system", label: "System (follows the desktop)" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
];

const ERAS: { value: EraChoice; label: string }[] = [
  { value: "auto", label: "Auto (probe with server/discover, else initialize)" },
  { value: "modern", label: "2026-07-28 only" },
  { value: "legacy", label: "Legacy only (initialize)" },
];

/** What a clearing did, said under its button. */
type Cleared = { history?: string; signIns?: string };

/**
 * The app's settings: the request timeout and the era new servers start with, the theme, where
 * the data and the secrets live, and clearing the history and the saved sign-ins (each on its
 * own click, saying what it removed).
 */
export function SettingsDialog({ onClose }: Props) {
  const [values, setValues] = useState<AppSettings>(appSettings);
  const [timeoutText, setTimeoutText] = useState(String(appSettings().request_timeout_s));
  const [places, setPlaces] = useState<DataPlaces | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [cleared, setCleared] = useState<Cleared>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void settingsIpc.dataPlaces().then(setPlaces, (e: unknown) => setError(errorMessage(e)));
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);

  const timeout = Number(timeoutText);
  const problem = timeoutProblem(timeout);
  const save = async () => {
    if (problem) return;
    const next = { ...values, request_timeout_s: timeout };
    setBusy(true);
    try {
      await settingsIpc.appSettingsSave(next);
      setAppSettings(next);
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    }
    setBusy(false);
  };
  const clear = async (what: keyof Cleared) => {
    try {
      if (what === "history") {
        const n = await settingsIpc.clearAllHistory();
        historyClearedEverywhere();
        setCleared((c) => ({ ...c, history: `Removed ${n} history ${n === 1 ? "entry" : "entries"}.` }));
      } else {
        const n = await settingsIpc.clearSignIns();
        setCleared((c) => ({
          ...c,
          signIns: `Removed ${n} saved sign-in${n === 1 ? "" : "s"}. A connected server keeps its token until it disconnects.`,
        }));
      }
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal" role="dialog" aria-modal="true" aria-label="Settings" data-testid="settings-dialog">
        <header className="modal-header">
          <h2>Settings</h2>
          <button type="button" className="icon-button" onClick={onClose} aria-label="Close settings">
            <X size={16} aria-hidden />
          </button>
        </header>
        <div className="modal-body settings-body">
          {error && <ErrorBox message={error} />}
          <section className="settings-section">
            <h3>Connections</h3>
            <label className="field">
              <span className="field-label">Request timeout (seconds)</span>
              <input
                type="number"
                min={1}
                max={3600}
                data-testid="settings-timeout"
                value={timeoutText}
                onChange={(e) => setTimeoutText(e.target.value)}
                aria-invalid={problem !== null}
              />
              <span className="field-hint">
                {problem ?? "How long a request waits for its answer. Applies to servers connected from now on."}
              </span>
            </label>
            <label className="field">
              <span className="field-label">Era of new servers</span>
              <select
                data-testid="settings-era"
                value={values.default_era}
                onChange={(e) => setValues({ ...values, default_era: e.target.value as EraChoice })}
              >
                {ERAS.map((era) => (
                  <option key={era.value} value={era.value}>
                    {era.label}
                  </option>
                ))}
              </select>
            </label>
          </section>
          <section className="settings-section">
            <h3>Appearance</h3>
            <label className="field">
              <span className="field-label">Theme</span>
              <select
                data-testid="settings-theme"
                value={values.theme}
                onChange={(e) => setValues({ ...values, theme: e.target.value as Theme })}
              >
                {THEMES.map((theme) => (
                  <option key={theme.value} value={theme.value}>
                    {theme.label}
                  </option>
                ))}
              </select>
            </label>
          </section>
          <section className="settings-section">
            <h3>Data</h3>
            {places && (
              <>
                <p className="settings-place">
                  The server catalog, saved calls, history and these settings are in{" "}
                  <code data-testid="settings-data-folder">{places.data_folder}</code>{" "}
                  <CopyButton text={places.data_folder} label="Copy the folder's path" />
                </p>
                <button
                  type="button"
                  className="button button-small"
                  data-testid="settings-open-folder"
                  onClick={() => void settingsIpc.openDataFolder().catch((e: unknown) => setError(errorMessage(e)))}
                >
                  <FolderOpen size={14} aria-hidden />
                  Open folder
                </button>
                <p className="settings-place" data-testid="settings-secrets">
                  {places.secrets_in_keychain
                    ? "Secrets (sign-in tokens, client secrets, secret header and environment values) are in the OS keychain, never in these files."
                    : `Secrets (sign-in tokens, client secrets, secret header and environment values) are in ${places.secrets_file ?? "an owner-only file"}, readable only by you, because the OS keychain is not available${places.keychain_unavailable_because ? ` (${places.keychain_unavailable_because})` : ""}.`}
                </p>
              </>
            )}
            <div className="settings-clear">
              <button type="button" className="button button-small" data-testid="settings-clear-history" onClick={() => void clear("history")}>
                Clear history
              </button>
              {cleared.history && <span data-testid="settings-cleared-history">{cleared.history}</span>}
            </div>
            <div className="settings-clear">
              <button type="button" className="button button-small" data-testid="settings-clear-sign-ins" onClick={() => void clear("signIns")}>
                Clear saved sign-ins
              </button>
              {cleared.signIns && <span data-testid="settings-cleared-sign-ins">{cleared.signIns}</span>}
            </div>
          </section>
        </div>
        <footer className="modal-footer">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="button button-primary"
            data-testid="settings-save"
            disabled={busy || problem !== null}
            onClick={() => void save()}
          >
            Save
          </button>
        </footer>
      </div>
    </div>
  );
}
