import { Download, Plus, Telescope } from "lucide-react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { closeImport, closeServerForm, openImport, openServerForm, useSidebarDialogs } from "./dialogs";
import { ImportDialog } from "./ImportDialog";
import { RecordingsGroup } from "../recordings/RecordingsGroup";
import { ServerForm } from "./ServerForm";
import { ServerItem } from "./ServerItem";
import { useConnections } from "../state/connections";
import { useTemporaryEntries } from "./useTemporaryEntries";

/** The app's name: the same in every language. */
const BRAND = "Periscope";

/** The server catalog. */
export function Sidebar() {
  const { t } = useTranslation(["sidebar", "common"]);
  const catalog = useConnections((s) => s.catalog);
  const catalogStatus = useConnections((s) => s.catalogStatus);
  const catalogError = useConnections((s) => s.catalogError);
  const selectedId = useConnections((s) => s.selectedId);
  const form = useSidebarDialogs((s) => s.form);
  const importing = useSidebarDialogs((s) => s.importing);
  const temporary = useTemporaryEntries();

  const editingId = form?.entry?.id;
  const editingState = useConnections((s) => (editingId ? s.servers[editingId]?.status.state : undefined));

  return (
    <aside className="sidebar">
      <header className="sidebar-header">
        <span className="brand">
          <Telescope size={16} aria-hidden />
          {BRAND}
        </span>
        <span className="sidebar-actions">
          <button
            type="button"
            className="button button-small"
            data-testid="import-button"
            onClick={() => openImport()}
            title={t("header.importTitle")}
            aria-label={t("import.title")}
          >
            <Download size={14} aria-hidden />
          </button>
          <button
            type="button"
            className="button button-small"
            data-testid="add-server-button"
            onClick={() => openServerForm(null)}
          >
            <Plus size={14} aria-hidden />
            {t("header.add")}
          </button>
        </span>
      </header>
      {catalogError && <ErrorBox message={catalogError} />}
      {catalogStatus === "loading" && <EmptyState>{t("list.loading")}</EmptyState>}
      {catalogStatus === "loaded" && catalog.length === 0 && (
        <EmptyState
          testId="sidebar-empty"
          title={t("list.emptyTitle")}
          action={
            <>
              <button type="button" className="button button-small button-primary" onClick={() => openServerForm(null)}>
                <Plus size={14} aria-hidden />
                {t("header.add")}
              </button>{" "}
              <button type="button" className="button button-small" onClick={() => openImport()}>
                <Download size={14} aria-hidden />
                {t("import.title")}
              </button>
            </>
          }
        >
          {t("list.emptyBody")}
        </EmptyState>
      )}
      <ul className="server-list" aria-label={t("list.label")}>
        {catalog.map((entry) => (
          <ServerItem
            key={entry.id}
            entry={entry}
            selected={entry.id === selectedId}
            temporary={temporary.get(entry.id)}
            onEdit={(e) => openServerForm(e)}
          />
        ))}
      </ul>
      <RecordingsGroup />
      {importing && (
        <ImportDialog
          key={importing.opening}
          initialText={importing.text}
          initialFile={importing.file}
          onClose={closeImport}
        />
      )}

      {form && (
        <ServerForm
          key={form.opening}
          entry={form.entry}
          initial={form.initial}
          connected={editingState === "ready" || editingState === "connecting"}
          onClose={closeServerForm}
        />
      )}
    </aside>
  );
}
