import { Copy, Loader2, Pencil, Play, Square, Trash2 } from "lucide-react";
import { useEffect, useState, type KeyboardEvent, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import type { ServerEntry } from "../bindings/ServerEntry";
import type { TemporaryEntry } from "../bindings/TemporaryEntry";
import { duplicateEntry, removeEntry } from "../actions/catalog";
import { connect, disconnect } from "../actions/connections";
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

/** From this many seconds on, the connecting line counts them. */
const COUNT_FROM_S = 2;

/**
 * "Connecting…" with a spinner while the server connects, and the seconds it has taken once
 * they are more than two (a server that takes long to start is not a frozen app).
 */
function Connecting() {
  const { t } = useTranslation(["sidebar", "common"]);
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timer = window.setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <div className="server-item-progress" data-testid="server-item-connecting" role="status">
      <Loader2 size={11} className="spin" aria-hidden />
      {seconds >= COUNT_FROM_S ? t("item.connectingFor", { seconds }) : t("item.connecting")}
    </div>
  );
}

/** One catalog entry: status, name, command line or URL, and its actions. */
export function ServerItem({ entry, selected, temporary, onEdit }: Props) {
  const { t } = useTranslation(["sidebar", "common"]);
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
            title={live ? t("common:disconnect") : t("common:connect")}
            aria-label={live ? t("common:disconnect") : t("common:connect")}
            onClick={stop(() => void (live ? disconnect(entry.id) : connect(entry.id)))}
          >
            {live ? <Square size={13} aria-hidden /> : <Play size={13} aria-hidden />}
          </button>
          <button
            type="button"
            className="icon-button"
            data-testid="edit-server"
            title={t("common:edit")}
            aria-label={t("common:edit")}
            onClick={stop(() => onEdit(entry))}
          >
            <Pencil size={13} aria-hidden />
          </button>
          <button
            type="button"
            className="icon-button"
            data-testid="duplicate-server"
            title={t("item.duplicate")}
            aria-label={t("item.duplicate")}
            onClick={stop(() => void duplicateEntry(entry))}
          >
            <Copy size={13} aria-hidden />
          </button>
          <button
            type="button"
            className="icon-button danger"
            data-testid="remove-server"
            title={t("common:remove")}
            aria-label={t("common:remove")}
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
      {state === "connecting" && <Connecting />}
      {temporary && (
        <div
          className="server-item-temporary"
          data-testid="temporary-mark"
          title={t("item.temporaryTitle", { source: temporary.source })}
        >
          <span>{t("item.temporary")}</span>
          {" · "}
          <button
            type="button"
            className="link-button"
            data-testid="keep-server"
            aria-label={t("item.keep", { name: entry.name })}
            onClick={stop(() => void keepEntry(entry.id))}
          >
            {t("common:save")}
          </button>
        </div>
      )}
      {confirming && (
        <div className="confirm-row" role="alertdialog" aria-label={t("item.removeLabel", { name: entry.name })}>
          <span>
            {live ? t("item.confirmRemoveLive", { name: entry.name }) : t("item.confirmRemove", { name: entry.name })}
          </span>
          <button
            type="button"
            className="button button-small button-danger"
            data-testid="confirm-remove"
            onClick={stop(() => {
              setConfirming(false);
              void removeEntry(entry.id);
            })}
          >
            {t("common:remove")}
          </button>
          <button
            type="button"
            className="button button-small"
            data-testid="cancel-remove"
            onClick={stop(() => setConfirming(false))}
          >
            {t("common:cancel")}
          </button>
        </div>
      )}
    </li>
  );
}
