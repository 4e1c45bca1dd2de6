import { FileClock, FolderOpen } from "lucide-react";
import type { KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { select, useConnections } from "../state/connections";
import { useRecordings } from "../state/recordings";
import { openRecordingFile } from "./actions";

/** The sidebar's "Recordings" group: the record files reopened read-only, and File → Open. */
export function RecordingsGroup() {
  const { t } = useTranslation("recordings");
  const list = useRecordings((s) => s.list);
  const selectedId = useConnections((s) => s.selectedId);
  const onKey = (id: string) => (event: KeyboardEvent) => {
    if (event.target === event.currentTarget && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      select(id);
    }
  };
  return (
    <section className="recordings-group" aria-label={t("group.label")}>
      <header className="recordings-group-header">
        <span className="muted">{t("group.title")}</span>
        <button
          type="button"
          className="button button-small"
          data-testid="open-recording-button"
          title={t("group.openTitle")}
          onClick={() => void openRecordingFile()}
        >
          <FolderOpen size={14} aria-hidden />
          {t("group.open")}
        </button>
      </header>
      {list.length > 0 && (
        <ul className="server-list" aria-label={t("group.label")}>
          {list.map((info) => (
            <li
              key={info.id}
              className={`server-item${info.id === selectedId ? " selected" : ""}`}
              data-testid="recording-item"
              data-recording-id={info.id}
              data-recording-name={info.name}
              role="button"
              tabIndex={0}
              aria-current={info.id === selectedId ? "true" : undefined}
              onClick={() => select(info.id)}
              onKeyDown={onKey(info.id)}
            >
              <div className="server-item-main">
                <FileClock size={12} aria-hidden />
                <span className="server-item-name" title={info.path}>
                  {info.name}
                </span>
              </div>
              <div className="server-item-command mono">{t("group.readOnly", { frames: info.frames })}</div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
