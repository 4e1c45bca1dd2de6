import { Download } from "lucide-react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { TrafficExport } from "../bindings/TrafficExport";
import type { TrafficFilter } from "../bindings/TrafficFilter";
import { errorMessage, ipc } from "../ipc";
import { notify } from "../feedback/toasts";

const FORMATS: readonly TrafficExport[] = ["har", "jsonl", "markdown"];

/**
 * The Traffic view's exports: HAR (the HTTP exchanges), JSON Lines (every frame), Markdown (the
 * frames the filter shows). The Rust side builds the file and asks where to save it.
 */
export function ExportMenu({ serverId, query, shown }: { serverId: string; query: TrafficFilter; shown: number }) {
  const { t } = useTranslation("traffic");
  const [busy, setBusy] = useState(false);
  const menu = useRef<HTMLDetailsElement>(null);
  const run = async (format: TrafficExport) => {
    if (menu.current) menu.current.open = false;
    setBusy(true);
    try {
      // Markdown takes the frames the filter shows: the engine asks its own record.
      const path = await ipc.exportTraffic(serverId, format, query);
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
            ? item(format, t("export.markdown", { count: shown }), t("export.markdownHint"), shown === 0)
            : item(format, t(`export.${format}`), t(`export.${format}Hint`)),
        )}
      </div>
    </details>
  );
}
