import { Copy, Pencil, Play, Square, Trash2 } from "lucide-react";
import { useState, type KeyboardEvent, type MouseEvent } from "react";
import type { ServerEntry } from "../bindings/ServerEntry";
import type { TemporaryEntry } from "../bindings/TemporaryEntry";
import { connect, disconnect, duplicateEntry, removeEntry } from "../actions";
import { StatusDot } from "../common/StatusDot";
import { targetLine } from "../format";
import { select, useConnections } from "../state/connections";
import { keepEntry } from "./useTemporaryEntries";

interface Props {
  entry: ServerEntry;
  selected: boolean;
  /** Set when the entry was opened from the command line and is not saved yet. */
  temporary?: TemporaryEntry;
  onEdit: (entry: ServerEntry) => void;
}

const stop = (run: () => void) => (event: MouseEvent) => {
  event.stopPropagation();
  run();
};

/** One catalog entry: status, name, command line or URL, and its actions. */
export function ServerItem({ entry, selected, temporary, onEdit }: Props) {
  const state = useConnections((s) => s.servers[entry.id]?.status.state ?? "disconnected");
  const busy = useConnections((s) => s.servers[entry.id]?.busy ?? null);
  const [confirming, setConfirming] = useState(false);
  const live = state === "ready" || state === "connecting";

  const choose = () => select(entry.id);
  const onKey = (event: KeyboardEvent) => {
    if (event.target === event.currentTarget && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      choose();
    }
  };

  return (
    <li
      className={`server-item${selected ? " selected" : ""}`}
      data-testid="server-item"
      data-server-id={entry.id}
      data-server-name={entry.name}
      data-status={state}
      data-temporary={temporary ? "true" : undefined}
      role="button"
      tabIndex={0}
      aria-current={selected ? "true" : undefined}
      onClick={choose}
      onKeyDown={onKey}
    >
      <div className="server-item-main">
        <StatusDot state={state} />
        <span className="server-item-name" title={entry.name}>
          {entry.name}
        </span>
        <span className="server-item-actions">
          <button
            type="button"
            className="icon-button"
            disabled={busy !== null}
            title={live ? "Disconnect" : "Connect"}
            aria-label={live ? "Disconnect" : "Connect"}
            onClick={stop(() => void (live ? disconnect(entry.id) : connect(entry.id)))}
          >
            {live ? <Square size={13} aria-hidden /> : <Play size={13} aria-hidden />}
          </button>
          <button
            type="button"
            className="icon-button"
            data-testid="edit-server"
            title="Edit"
            aria-label="Edit"
            onClick={stop(() => onEdit(entry))}
          >
            <Pencil size={13} aria-hidden />
          </button>
          <button
            type="button"
            className="icon-button"
            data-testid="duplicate-server"
            title="Duplicate"
            aria-label="Duplicate"
            onClick={stop(() => void duplicateEntry(entry))}
          >
            <Copy size={13} aria-hidden />
          </button>
          <button
            type="button"
            className="icon-button danger"
            data-testid="remove-server"
            title="Remove"
            aria-label="Remove"
            onClick={stop(() => setConfirming(true))}
          >
            <Trash2 size={13} aria-hidden />
          </button>
        </span>
      </div>
      <div
        className="server-item-command mono"
        data-testid="server-item-target"
        data-transport={entry.target.transport}
        title={targetLine(entry.target)}
      >
        {targetLine(entry.target)}
      </div>
      {temporary && (
        <div
          className="server-item-temporary"
          data-testid="temporary-mark"
          title={`Opened from the command line (${temporary.source}). Not in your catalog until you save it.`}
        >
          <span>temporary · from the command line</span>
          {" · "}
          <button
            type="button"
            className="link-button"
            data-testid="keep-server"
            aria-label={`Save ${entry.name} to the catalog`}
            onClick={stop(() => void keepEntry(entry.id))}
          >
            Save
          </button>
        </div>
      )}
      {confirming && (
        <div className="confirm-row" role="alertdialog" aria-label={`Remove ${entry.name}?`}>
          <span>Remove “{entry.name}”{live ? " and disconnect it" : ""}?</span>
          <button
            type="button"
            className="button button-small button-danger"
            data-testid="confirm-remove"
            onClick={stop(() => {
              setConfirming(false);
              void removeEntry(entry.id);
            })}
          >
            Remove
          </button>
          <button
            type="button"
            className="button button-small"
            data-testid="cancel-remove"
            onClick={stop(() => setConfirming(false))}
          >
            Cancel
          </button>
        </div>
      )}
    </li>
  );
}
