import { X } from "lucide-react";
import { useEffect, useState } from "react";
import type { HostFile } from "../bindings/HostFile";
import type { ImportPreview } from "../bindings/ImportPreview";
import { ErrorBox } from "../common/ErrorBox";
import { errorMessage, ipc } from "../ipc";
import { setCatalog } from "../state/connections";
import { describe, HOST_LABEL, missingSecrets, needKey, typedNeeds, withTyped } from "./importPreview";

interface Props {
  onClose: () => void;
}

/**
 * Import servers from another MCP host's config: paste it (or a command line) or pick a file
 * found on this computer, see what would be added, and import on confirmation. Secret values go
 * to the keychain, as from the server form.
 */
export function ImportDialog({ onClose }: Props) {
  const [files, setFiles] = useState<HostFile[]>([]);
  const [text, setText] = useState("");
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [chosen, setChosen] = useState<boolean[]>([]);
  const [typed, setTyped] = useState<Record<string, string>[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void ipc.importHostFiles().then(setFiles, () => setFiles([]));
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);

  const show = (next: ImportPreview) => {
    setPreview(next);
    setChosen(next.entries.map(() => true));
    setTyped(next.entries.map(() => ({})));
    setError(null);
  };
  const run = async (load: () => Promise<ImportPreview>) => {
    setBusy(true);
    try {
      show(await load());
    } catch (e) {
      setPreview(null);
      setError(errorMessage(e));
    }
    setBusy(false);
  };

  const picked = preview ? preview.entries.filter((_, i) => chosen[i]) : [];
  const missing = preview
    ? preview.entries.flatMap((e, i) => (chosen[i] ? missingSecrets(e, typed[i] ?? {}) : []))
    : [];
  const confirm = async () => {
    if (!preview) return;
    setBusy(true);
    try {
      const entries = preview.entries.flatMap((e, i) => (chosen[i] ? [withTyped(e, typed[i] ?? {})] : []));
      setCatalog(await ipc.importSave(entries));
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    }
    setBusy(false);
  };

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal modal-wide" role="dialog" aria-modal="true" aria-label="Import servers">
        <header className="modal-header">
          <h2>Import servers</h2>
          <button type="button" className="icon-button" onClick={onClose} aria-label="Close" title="Close">
            <X size={16} aria-hidden />
          </button>
        </header>
        <div className="modal-body import-body">
          {files.length > 0 && (
            <div className="import-files">
              <span className="form-label">Found on this computer</span>
              {files.map((file) => (
                <button
                  key={file.path}
                  type="button"
                  className="button button-small"
                  data-testid="import-host-file"
                  data-dialect={file.dialect}
                  disabled={busy}
                  onClick={() => void run(() => ipc.importPreviewFile(file.path))}
                  title={file.path}
                >
                  {HOST_LABEL[file.dialect]} <span className="muted">{file.path}</span>
                </button>
              ))}
            </div>
          )}
          <label className="form-label" htmlFor="import-text">
            Or paste a config (Claude, Cursor, Windsurf, Cline, VS Code, Zed, a server.json) or a command line
          </label>
          <textarea
            id="import-text"
            className="form-control code"
            data-testid="import-text"
            rows={6}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={'npx -y @modelcontextprotocol/server-everything\n{"mcpServers": {…}}'}
          />
          <div>
            <button
              type="button"
              className="button"
              data-testid="import-preview-button"
              disabled={busy || text.trim() === ""}
              onClick={() => void run(() => ipc.importPreview(text, null))}
            >
              Preview
            </button>
          </div>
          {error && <ErrorBox message={error} />}
          {preview && (
            <section aria-label="Preview" data-testid="import-preview" data-dialect={preview.dialect}>
              <p className="muted">
                Read as {HOST_LABEL[preview.dialect]}: {preview.entries.length} to import, {preview.refused.length} not.
              </p>
              <table className="import-table">
                <thead>
                  <tr>
                    <th scope="col">Import</th>
                    <th scope="col">Server</th>
                    <th scope="col">Runs</th>
                    <th scope="col">Environment / headers</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.entries.map((imported, i) => {
                    const view = describe(imported.entry);
                    return (
                      <tr key={imported.entry.id} data-testid="import-row" data-name={imported.entry.name}>
                        <td>
                          <input
                            type="checkbox"
                            aria-label={`Import ${imported.entry.name}`}
                            checked={chosen[i] ?? false}
                            onChange={(e) => setChosen((c) => c.map((v, j) => (j === i ? e.target.checked : v)))}
                          />
                        </td>
                        <td>
                          {imported.entry.name}
                          <div className="muted">{view.kind}</div>
                        </td>
                        <td className="code">{view.line}</td>
                        <td>
                          {view.pairs.map((p) => (
                            <div key={p.name} className="code">
                              {p.name} = {p.empty ? "(to type)" : "••••"}{" "}
                              {p.secret && (
                                <span className="badge" data-testid="import-keychain">
                                  keychain
                                </span>
                              )}
                            </div>
                          ))}
                          {typedNeeds(imported).map((need) => (
                            <input
                              key={needKey(need)}
                              type={need.password ? "password" : "text"}
                              className="form-control"
                              data-testid="import-need"
                              aria-label={`${need.placeholder} ${need.prompt ?? ""}`}
                              placeholder={need.prompt ?? need.placeholder}
                              value={typed[i]?.[needKey(need)] ?? ""}
                              onChange={(e) =>
                                setTyped((t) =>
                                  t.map((v, j) => (j === i ? { ...v, [needKey(need)]: e.target.value } : v)),
                                )
                              }
                            />
                          ))}
                          {imported.notes.map((note) => (
                            <div key={note} className="muted">
                              {note}
                            </div>
                          ))}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              {preview.refused.length > 0 && (
                <div data-testid="import-refused">
                  <span className="form-label">Not imported</span>
                  <ul>
                    {preview.refused.map((r) => (
                      <li key={r.name}>
                        {r.name}: {r.message}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </section>
          )}
        </div>
        <footer className="modal-footer">
          <span className="muted">
            {missing.length > 0 ? `Type the secret values first: ${missing.join(", ")}` : ""}
          </span>
          <span>
            <button type="button" className="button" onClick={onClose}>
              Cancel
            </button>{" "}
            <button
              type="button"
              className="button button-primary"
              data-testid="import-confirm"
              disabled={busy || picked.length === 0 || missing.length > 0}
              onClick={() => void confirm()}
            >
              Import {picked.length} server{picked.length === 1 ? "" : "s"}
            </button>
          </span>
        </footer>
      </div>
    </div>
  );
}
