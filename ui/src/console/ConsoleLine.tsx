import { memo } from "react";
import { useTranslation } from "react-i18next";
import { formatTime } from "../format";
import { eventText, heldText, type ConsoleEntry } from "./log";

/** One stderr line, log message, notification, or a count of log messages held back. */
export const ConsoleLine = memo(function ConsoleLine({ entry }: { entry: ConsoleEntry }) {
  const { t } = useTranslation("console");
  const time = <span className="console-time">{formatTime(entry.wallUs)}</span>;
  switch (entry.kind) {
    case "stderr":
      return (
        <div className="console-line console-stderr" data-testid="console-line" data-kind="stderr">
          {time}
          <span className="console-source">{t("source.stderr")}</span>
          <span className="console-text">{entry.text}</span>
        </div>
      );
    case "log":
      return (
        <div className="console-line console-log" data-testid="console-line" data-kind="log" data-level={entry.level}>
          {time}
          <span className={`level-badge level-${entry.level}`}>{entry.level}</span>
          {entry.logger && <span className="console-logger">{entry.logger}</span>}
          <span className="console-text">
            {typeof entry.data === "string" ? entry.data : JSON.stringify(entry.data)}
          </span>
        </div>
      );
    case "event":
      return (
        <div className="console-line console-event" data-testid="console-line" data-kind="event">
          {time}
          <span className="console-source">{t("source.event")}</span>
          <span className="console-text">{eventText(entry)}</span>
        </div>
      );
    case "held":
      return (
        <div className="console-line console-event console-held" data-testid="console-line" data-kind="held">
          {time}
          <span className="console-source">{t("source.held")}</span>
          <span className="console-text">{heldText(entry)}</span>
        </div>
      );
  }
});
