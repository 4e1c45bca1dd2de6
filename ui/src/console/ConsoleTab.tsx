import { Search } from "lucide-react";
import { useMemo, useState } from "react";
import { EmptyState } from "../common/EmptyState";
import { ConsoleLine } from "./ConsoleLine";
import type { ConsoleEntry, ConsoleLog } from "./log";
import type { ServerState } from "../state/connections";
import { useServerConsole } from "../state/logs";
import { useFollowTail } from "../common/useFollowTail";

/** The console draws at most this many of the newest matching entries. */
const SHOWN = 1_000;

function tail(log: ConsoleLog, needle: string, _version: number): { shown: ConsoleEntry[]; matching: number } {
  const entries = log.entries;
  if (needle === "") return { shown: entries.slice(-SHOWN), matching: entries.length };
  const matching = entries.filter((e) => entryText(e).toLowerCase().includes(needle));
  return { shown: matching.slice(-SHOWN), matching: matching.length };
}

function entryText(entry: ConsoleEntry): string {
  switch (entry.kind) {
    case "stderr":
    case "event":
      return entry.text;
    case "log":
      return `${entry.level} ${entry.logger ?? ""} ${JSON.stringify(entry.data)}`;
  }
}

/** The server's stderr and the notifications it sent, newest at the bottom. */
export function ConsoleTab({ server }: { server: ServerState }) {
  const { log, version } = useServerConsole(server.id);
  const [filter, setFilter] = useState("");
  const needle = filter.trim().toLowerCase();
  const { shown, matching } = useMemo(() => tail(log, needle, version), [log, needle, version]);
  const { ref: scrollRef, onScroll } = useFollowTail(shown, 24);

  const hidden = matching - shown.length + (needle === "" ? log.dropped : 0);
  return (
    <div className="console">
      <div className="filter-bar">
        <label className="search-field">
          <Search size={14} aria-hidden />
          <input
            type="search"
            aria-label="Filter the console"
            data-testid="console-filter"
            placeholder="Filter"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
        </label>
        <span className="spacer" />
        <span className="count-text">{matching.toLocaleString("en-US")} entries</span>
      </div>
      <div className="console-scroll mono" ref={scrollRef} onScroll={onScroll}>
        {hidden > 0 && (
          <div className="console-hidden">
            {hidden.toLocaleString("en-US")} older entries are not shown{needle === "" ? "" : " (filtered)"}.
          </div>
        )}
        {shown.length === 0 ? (
          <EmptyState>{log.entries.length === 0 ? "Nothing on stderr and no notifications yet." : "No entry matches."}</EmptyState>
        ) : (
          shown.map((entry) => <ConsoleLine key={entry.key} entry={entry} />)
        )}
      </div>
    </div>
  );
}
