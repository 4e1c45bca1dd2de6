import type { TFunction } from "i18next";
import type { ImportRefusal } from "../bindings/ImportRefusal";
import { Loader2 } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { HostFile } from "../bindings/HostFile";
import type { ImportPreview } from "../bindings/ImportPreview";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { Dialog } from "../dialog/Dialog";
import { errorMessage, ipc } from "../ipc";
import { setCatalog } from "../state/connections";
import { describe, hostLabel, hostsLookedFor, missingSecrets, needKey, typedNeeds, withTyped } from "./importPreview";

interface Props {
  /** Text to put in the paste box and preview at once (from the welcome view). */
  initialText?: string;
  /** A host config file to preview at once. */
  initialFile?: string;
  onClose: () => void;
}

/** What the dialog is doing, said with a spinner while it takes. */
type Work = { kind: "file"; path: string } | { kind: "paste" } | { kind: "save"; count: number };

// The paste box's placeholder: examples, the same in every language.
/** A value that is there but not shown. */
const MASK = "••••";
const PASTE_EXAMPLE = 'npx -y @modelcontextprotocol/server-everything\n{"mcpServers": {…}}';

/**
 * Import servers from another MCP host's config: paste it (or a command line) or pick a file
 * found on this computer, see what would be added, and import on confirmation. Secret values go
 * to the keychain, as from the server form.
 */
export function ImportDialog({ initialText, initialFile, onClose }: Props) {
  const { t } = useTranslation(["sidebar", "common"]);
  const [files, setFiles] = useState<HostFile[] | null>(null);
  const [text, setText] = useState(initialText ?? "");
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [chosen, setChosen] = useState<boolean[]>([]);
  const [typed, setTyped] = useState<Record<string, string>[]>([]);
  const [error, setError] = useState<string | null>(null);
  // Opened on a paste or a file (the welcome view): previewed at once (below).
  const [work, setWork] = useState<Work | null>(() =>
    initialFile ? { kind: "file", path: initialFile } : initialText?.trim() ? { kind: "paste" } : null,
  );
  const busy = work !== null;

  useEffect(() => {
    void ipc.importHostFiles().then(setFiles, () => setFiles([]));
  }, []);

  const show = (next: ImportPreview) => {
    setPreview(next);
    setChosen(next.entries.map(() => true));
    setTyped(next.entries.map(() => ({})));
    setError(null);
  };
  const run = async (doing: Work, load: () => Promise<ImportPreview>) => {
    setWork(doing);
    try {
      show(await load());
    } catch (e) {
      setPreview(null);
      setError(errorMessage(e));
    }
    setWork(null);
  };
  const previewFile = (path: string) => run({ kind: "file", path }, () => ipc.importPreviewFile(path));
  const previewText = (pasted: string) => run({ kind: "paste" }, () => ipc.importPreview(pasted, null));

  // The first preview of a dialog opened on a paste or a file. A preview only reads: nothing
  // is imported before the Import button.
  useEffect(() => {
    const first = initialFile
      ? ipc.importPreviewFile(initialFile)
      : initialText?.trim()
        ? ipc.importPreview(initialText, null)
        : null;
    if (!first) return;
    let live = true;
    first
      .then(
        (next) => {
          if (!live) return;
          setPreview(next);
          setChosen(next.entries.map(() => true));
          setTyped(next.entries.map(() => ({})));
          setError(null);
        },
        (e: unknown) => live && setError(errorMessage(e)),
      )
      .finally(() => live && setWork(null));
    return () => {
      live = false;
    };
  }, [initialFile, initialText]);

  const picked = preview ? preview.entries.filter((_, i) => chosen[i]) : [];
  const missing = preview
    ? preview.entries.flatMap((e, i) => (chosen[i] ? missingSecrets(e, typed[i] ?? {}) : []))
    : [];
  const confirm = async () => {
    if (!preview) return;
    setWork({ kind: "save", count: picked.length });
    try {
      const entries = preview.entries.flatMap((e, i) => (chosen[i] ? [withTyped(e, typed[i] ?? {})] : []));
      setCatalog(await ipc.importSave(entries));
      onClose();
    } catch (e) {
      setError(errorMessage(e));
    }
    setWork(null);
  };

  const progress =
    work === null
      ? null
      : work.kind === "file"
        ? t("import.progress.file", { path: work.path })
        : work.kind === "paste"
          ? t("import.progress.paste")
          : t("import.progress.save", { count: work.count });

  return (
    <Dialog
      title={t("import.title")}
      onClose={onClose}
      className="modal-wide"
      bodyClassName="import-body"
      footer={
        <>
          <span className="muted">
            {missing.length > 0 ? t("import.missing", { names: missing.join(", ") }) : ""}
          </span>
          <span>
            <button type="button" className="button" onClick={onClose}>
              {t("common:cancel")}
            </button>{" "}
            <button
              type="button"
              className="button button-primary"
              data-testid="import-confirm"
              disabled={busy || picked.length === 0 || missing.length > 0}
              onClick={() => void confirm()}
            >
              {t("import.confirm", { count: picked.length })}
            </button>
          </span>
        </>
      }
    >
      {files === null && (
        <p className="muted small" data-testid="import-looking">
          <Loader2 size={12} className="spin" aria-hidden /> {t("import.looking")}
        </p>
      )}
      {files !== null && files.length === 0 && (
        <p className="muted small" data-testid="import-no-host-files">
          {t("import.noHostFiles", { hosts: hostsLookedFor() })}
        </p>
      )}
      {files !== null && files.length > 0 && (
        <div className="import-files">
          <span className="form-label">{t("import.found")}</span>
          {files.map((file) => (
            <button
              key={file.path}
              type="button"
              className="button button-small"
              data-testid="import-host-file"
              data-dialect={file.dialect}
              disabled={busy}
              onClick={() => void previewFile(file.path)}
              title={file.path}
            >
              {hostLabel(file.dialect)} <span className="muted">{file.path}</span>
            </button>
          ))}
        </div>
      )}
      <label className="form-label" htmlFor="import-text">
        {t("import.pasteLabel")}
      </label>
      <textarea
        id="import-text"
        className="form-control code"
        data-testid="import-text"
        rows={6}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={PASTE_EXAMPLE}
      />
      <div>
        <button
          type="button"
          className="button"
          data-testid="import-preview-button"
          disabled={busy || text.trim() === ""}
          onClick={() => void previewText(text)}
        >
          {t("import.preview")}
        </button>
      </div>
      {progress && (
        <p className="muted small" role="status" data-testid="import-progress">
          <Loader2 size={12} className="spin" aria-hidden /> {progress}
        </p>
      )}
      {error && <ErrorBox message={error} />}
      {preview && (
        <section aria-label={t("import.preview")} data-testid="import-preview" data-dialect={preview.dialect}>
          <p className="muted">
            {t("import.readAs", {
              host: hostLabel(preview.dialect),
              entries: preview.entries.length,
              refused: preview.refused.length,
            })}
          </p>
          {preview.entries.length === 0 && preview.refused.length === 0 && (
            <EmptyState testId="import-nothing" title={t("import.nothingTitle")}>
              {t("import.nothingBody")}
            </EmptyState>
          )}
          {preview.entries.length === 0 && preview.refused.length > 0 && (
            <EmptyState testId="import-nothing" title={t("import.noneImportableTitle")}>
              {t("import.noneImportableBody")}
            </EmptyState>
          )}
          {preview.entries.length > 0 && (
            <table className="import-table">
              <thead>
                <tr>
                  <th scope="col">{t("import.columns.import")}</th>
                  <th scope="col">{t("import.columns.server")}</th>
                  <th scope="col">{t("import.columns.runs")}</th>
                  <th scope="col">{t("import.columns.pairs")}</th>
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
                          aria-label={t("import.choose", { name: imported.entry.name })}
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
                            {p.name} = {p.empty ? t("import.toType") : MASK}{" "}
                            {p.secret && (
                              <span className="badge" data-testid="import-keychain">
                                {t("import.keychain")}
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
                              setTyped((all) =>
                                all.map((v, j) => (j === i ? { ...v, [needKey(need)]: e.target.value } : v)),
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
          )}
          {preview.refused.length > 0 && (
            <div data-testid="import-refused">
              <span className="form-label">{t("import.refused")}</span>
              <ul>
                {preview.refused.map((r) => (
                  <li key={r.name}>{t("import.refusedLine", { name: r.name, message: refusalText(r.reason, t) })}</li>
                ))}
              </ul>
            </div>
          )}
        </section>
      )}
    </Dialog>
  );
}

/** Why a server cannot be imported, in the UI's language (the engine's `ImportRefusal`). */
function refusalText(reason: ImportRefusal, t: TFunction<"sidebar">): string {
  switch (reason.kind) {
    case "not_an_object":
    case "missing_command":
    case "missing_url":
    case "zed_extension":
    case "nothing_to_run":
      return t(`import.refusal.${reason.kind}`);
    case "unknown_transport":
    case "package_serves_http":
      return t(`import.refusal.${reason.kind}`, { transport: reason.transport });
    case "bad_field":
      return t("import.refusal.bad_field", { field: reason.field, expected: reason.expected });
    case "unset_variable":
      return t("import.refusal.unset_variable", { variable: reason.variable });
    case "unsupported_variable":
      return t("import.refusal.unsupported_variable", { placeholder: reason.placeholder });
    case "unknown_package_type":
      return t("import.refusal.unknown_package_type", { registryType: reason.registry_type });
  }
}
