import { Download } from "lucide-react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TrafficExport } from "../bindings/TrafficExport";
import { errorMessage, ipc } from "../ipc";
import { notify } from "../feedback/toasts";
import type { RowsView } from "./filter";

const FORMATS: readonly TrafficExport[] = ["har", "jsonl", "markdown"];

/**
 * The Traffic view's exports: HAR (the HTTP exchanges), JSON Lines (every frame), Markdown (the
 * frames the filter shows). The Rust side builds the file and asks where to save it.
 */
export function ExportMenu({ serverId, rows }: { serverId: string; rows: RowsView }) {
  const { t } = useTranslation("traffic");
  const [busy, setBusy] = useState(false);
  const menu = useRef<HTMLDetailsElement>(null);
  const run = async (format: TrafficExport) => {
    if (menu.current) menu.current.open = false;
    const seqs: number[] = [];
    if (format === "markdown") {
      for (let i = 0; i < rows.count; i++) {
        const row = rows.rowAt(i);
        if (row) seqs.push(row.seq);
      }
    }
    setBusy(true);
    try {
      const path = await ipc.exportTraffic(serverId, format, seqs);
      if (path) notify.success(t("export.saved", { path }));
    } catch (error) {
      notify.error(t("export.failed", { error: errorMessage(error) }));
    } finally {
      setBusy(false);
    }
  };
  const item = (format: TrafficExport, label: string, hint: string, disabled = false) => (
    <button
      key={format}
      type="button"
      className="menu-item"
      role="menuitem"
      data-testid={`traffic-export-${format}`}
      disabled={busy || disabled}
      title={hint}
      onClick={() => void run(format)}
    >
      {label}
    </button>
  );
  return (
    <details ref={menu} className="export-menu" data-testid="traffic-export">
      <summary className="button button-small" aria-label={t("export.title")}>
        <Download size={13} aria-hidden />
        {t("export.title")}
      </summary>
      <div className="menu" role="menu">
        {FORMATS.map((format) =>
          format === "markdown"
            ? item(format, t("export.markdown", { count: rows.count }), t("export.markdownHint"), rows.count === 0)
            : item(format, t(`export.${format}`), t(`export.${format}Hint`)),
        )}
      </div>
    </details>
  );
}
