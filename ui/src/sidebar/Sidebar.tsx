import { Download, Plus, Telescope } from "lucide-react";
import { useCallback, useState } from "react";
import type { ServerEntry } from "../bindings/ServerEntry";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { ImportDialog } from "./ImportDialog";
import { ServerForm } from "./ServerForm";
import { ServerItem } from "./ServerItem";
import { useConnections } from "../state/connections";
import { useTemporaryEntries } from "./useTemporaryEntries";

type FormState = { open: false } | { open: true; entry: ServerEntry | null };

/** The server catalog. */
export function Sidebar() {
  const catalog = useConnections((s) => s.catalog);
  const catalogStatus = useConnections((s) => s.catalogStatus);
  const catalogError = useConnections((s) => s.catalogError);
  const selectedId = useConnections((s) => s.selectedId);
  const [form, setForm] = useState<FormState>({ open: false });
  const close = useCallback(() => setForm({ open: false }), []);
  const [importing, setImporting] = useState(false);
  const temporary = useTemporaryEntries();
  const closeImport = useCallback(() => setImporting(false), []);

  const editingId = form.open ? form.entry?.id : undefined;
  const editingState = useConnections((s) => (editingId ? s.servers[editingId]?.status.state : undefined));

  return (
    <aside className="sidebar">
      <header className="sidebar-header">
        <span className="brand">
          <Telescope size={16} aria-hidden />
          Periscope
        </span>
        <span className="sidebar-actions">
          <button
            type="button"
            className="button button-small"
            data-testid="import-button"
            onClick={() => setImporting(true)}
            title="Import servers from Claude, Cursor, VS Code, Zed… or a command line"
            aria-label="Import servers"
          >
            <Download size={14} aria-hidden />
          </button>
          <button
            type="button"
            className="button button-small"
            data-testid="add-server-button"
            onClick={() => setForm({ open: true, entry: null })}
          >
            <Plus size={14} aria-hidden />
            Add server
          </button>
        </span>
      </header>
      {catalogError && <ErrorBox message={catalogError} />}
      {catalogStatus === "loading" && <EmptyState>Loading servers…</EmptyState>}
      {catalogStatus === "loaded" && catalog.length === 0 && (
        <EmptyState>No servers yet. Add one to start inspecting it.</EmptyState>
      )}
      <ul className="server-list" aria-label="Servers">
        {catalog.map((entry) => (
          <ServerItem
            key={entry.id}
            entry={entry}
            selected={entry.id === selectedId}
            temporary={temporary.get(entry.id)}
            onEdit={(e) => setForm({ open: true, entry: e })}
          />
        ))}
      </ul>
      {importing && <ImportDialog onClose={closeImport} />}

      {form.open && (
        <ServerForm
          key={form.entry?.id ?? "new"}
          entry={form.entry}
          connected={editingState === "ready" || editingState === "connecting"}
          onClose={close}
        />
      )}
    </aside>
  );
}
