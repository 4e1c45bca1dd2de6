import { Search } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConnectButton } from "../common/ConnectButton";
import { EmptyState } from "../common/EmptyState";
import { FollowedList } from "../common/FollowedList";
import { ConsoleLine } from "./ConsoleLine";
import type { ConsoleEntry, ConsoleLog } from "../state/consoleLog";
import { eventText, heldText } from "./describe";
import type { ServerState } from "../state/connections";
import { useServerConsole } from "../state/logs";

/** A console line's height before it is measured: one line of `.console-line` (long ones wrap). */
const LINE_ESTIMATE = 20;

/** Every entry kept, or those the filter matches (the list draws only those in sight). */
function matching(log: ConsoleLog, needle: string, _version: number, _language: string): ConsoleEntry[] {
  // The log's own array, grown in place: the tab re-renders on its version, and the list
  // tells growth by its length.
  if (needle === "") return log.entries;
  return log.entries.filter((e) => entryText(e).toLowerCase().includes(needle));
}

const keyOf = (entry: ConsoleEntry) => entry.key;
const renderLine = (entry: ConsoleEntry) => <ConsoleLine entry={entry} />;

/** The text the filter searches: what the line shows. */
function entryText(entry: ConsoleEntry): string {
  switch (entry.kind) {
    case "stderr":
      return entry.text;
    case "event":
      return eventText(entry);
    case "held":
      return heldText(entry);
    case "log":
      return `${entry.level} ${entry.logger ?? ""} ${JSON.stringify(entry.data)}`;
  }
}

/** The server's stderr and the notifications it sent, newest at the bottom. */
export function ConsoleTab({ server }: { server: ServerState }) {
  const { t, i18n } = useTranslation("console");
  const { log, version } = useServerConsole(server.id);
  const [filter, setFilter] = useState("");
  const needle = filter.trim().toLowerCase();
  // Event lines are searched in the words shown, so the language is part of the key.
  const language = i18n.language;
  const shown = useMemo(() => matching(log, needle, version, language), [log, needle, version, language]);
  const live = server.status.state === "ready" || server.status.state === "connecting";
  return (
    <div className="console">
      <div className="filter-bar">
        <label className="search-field">
          <Search size={14} aria-hidden />
          <input
            type="search"
            aria-label={t("filter.label")}
            data-testid="console-filter"
            placeholder={t("filter.placeholder")}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
        </label>
        <span className="spacer" />
        <span className="count-text">{t("count", { count: shown.length })}</span>
      </div>
      {log.held > 0 && (
        // In a flood each second's count scrolls away under the next second's messages: the
        // total stays in sight.
        <div className="console-held-total" data-testid="console-held-total" role="status">
          {t("heldTotal", { count: log.held, perSecond: log.heldPerSecond })}
        </div>
      )}
      <FollowedList
        className="console-scroll mono"
        items={shown}
        keyOf={keyOf}
        render={renderLine}
        estimate={LINE_ESTIMATE}
        before={
          // Entries past the console's limit are gone, whatever the filter: they are only counted.
          log.dropped > 0 && <div className="console-hidden">{t("older", { count: log.dropped })}</div>
        }
        empty={
          log.entries.length === 0 ? (
            <EmptyState
              title={t("empty.title")}
              action={live ? undefined : <ConnectButton server={server} />}
              testId="console-empty"
            >
              {live ? t("empty.body") : t("empty.bodyConnect")}
            </EmptyState>
          ) : (
            <EmptyState
              title={t("empty.filteredTitle")}
              testId="console-empty"
              action={
                <button type="button" className="button" data-testid="console-clear-filter" onClick={() => setFilter("")}>
                  {t("empty.clearFilter")}
                </button>
              }
            >
              {t("empty.filteredBody", { count: log.entries.length })}
            </EmptyState>
          )
        }
      />
    </div>
  );
}
