import { Search } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConnectButton } from "../common/ConnectButton";
import { EmptyState } from "../common/EmptyState";
import { ConsoleLine } from "./ConsoleLine";
import type { ConsoleEntry, ConsoleLog } from "../state/consoleLog";
import { eventText, heldText } from "./describe";
import type { ServerState } from "../state/connections";
import { useServerConsole } from "../state/logs";
import { useFollowTail } from "../common/useFollowTail";

/** The console draws at most this many of the newest matching entries. */
const SHOWN = 1_000;

function tail(log: ConsoleLog, needle: string, _version: number, _language: string): { shown: ConsoleEntry[]; matching: number } {
  const entries = log.entries;
  if (needle === "") return { shown: entries.slice(-SHOWN), matching: entries.length };
  const matching = entries.filter((e) => entryText(e).toLowerCase().includes(needle));
  return { shown: matching.slice(-SHOWN), matching: matching.length };
}

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
  const { shown, matching } = useMemo(() => tail(log, needle, version, language), [log, needle, version, language]);
  const { ref: scrollRef, onScroll } = useFollowTail(shown, 24);

  const hidden = matching - shown.length + (needle === "" ? log.dropped : 0);
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
        <span className="count-text">{t("count", { count: matching })}</span>
      </div>
      {log.held > 0 && (
        // In a flood each second's count scrolls away under the next second's messages: the
        // total stays in sight.
        <div className="console-held-total" data-testid="console-held-total" role="status">
          {t("heldTotal", { count: log.held, perSecond: log.heldPerSecond })}
        </div>
      )}
      <div className="console-scroll mono" ref={scrollRef} onScroll={onScroll}>
        {hidden > 0 && (
          <div className="console-hidden">
            {needle === "" ? t("older", { count: hidden }) : t("olderFiltered", { count: hidden })}
          </div>
        )}
        {shown.length === 0 ? (
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
        ) : (
          shown.map((entry) => <ConsoleLine key={entry.key} entry={entry} />)
        )}
      </div>
    </div>
  );
}
