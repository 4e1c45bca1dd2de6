import { memo } from "react";
import { useTranslation } from "react-i18next";
import { ServerText } from "../common/ServerText";
import { formatTime } from "../format";
import type { ConsoleEntry } from "../state/consoleLog";
import { eventText, heldText } from "./describe";

/** One stderr line, log message, notification, or a count of log messages held back. */
export const ConsoleLine = memo(function ConsoleLine({ entry }: { entry: ConsoleEntry }) {
  const { t } = useTranslation("console");
  const time = <span className="console-time">{formatTime(entry.wallUs)}</span>;
  /** A line with a source word and text (everything but a log message). */
  const sourced = (kind: ConsoleEntry["kind"], className: string, source: string, text: string) => (
    <div className={`console-line ${className}`} data-testid="console-line" data-kind={kind}>
      {time}
      <span className="console-source">{source}</span>
      <span className="console-text">
        <ServerText text={text} />
      </span>
    </div>
  );
  switch (entry.kind) {
    case "stderr":
      return sourced("stderr", "console-stderr", t("source.stderr"), entry.text);
    case "log":
      return (
        <div className="console-line console-log" data-testid="console-line" data-kind="log" data-level={entry.level}>
          {time}
          <span className={`level-badge level-${entry.level}`}>{entry.level}</span>
          {entry.logger && <span className="console-logger">{entry.logger}</span>}
          <span className="console-text">
            <ServerText text={typeof entry.data === "string" ? entry.data : JSON.stringify(entry.data)} />
          </span>
        </div>
      );
    case "event":
      return sourced("event", "console-event", t("source.event"), eventText(entry));
    case "held":
      return sourced("held", "console-event console-held", t("source.held"), heldText(entry));
  }
});
