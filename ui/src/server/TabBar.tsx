import { Activity, Bookmark, ListChecks, FileText, KeyRound, Globe, Info, MessageSquare, MessageCircleReply as Reply, Terminal, Wrench } from "lucide-react";
import type { ComponentType, KeyboardEvent } from "react";
import { setTab } from "../actions";
import { useAsks } from "../state/asks";
import { useWaitingTasks } from "../state/tasks";
import type { TabId } from "../state/connections";

const TABS: Array<{ id: TabId; label: string; icon: ComponentType<{ size?: number }> }> = [
  { id: "overview", label: "Overview", icon: Info },
  { id: "tools", label: "Tools", icon: Wrench },
  { id: "resources", label: "Resources", icon: FileText },
  { id: "prompts", label: "Prompts", icon: MessageSquare },
  { id: "saved", label: "Saved", icon: Bookmark },
  { id: "requests", label: "Requests", icon: Reply },
  { id: "tasks", label: "Tasks", icon: ListChecks },
  { id: "oauth", label: "OAuth", icon: KeyRound },
  { id: "traffic", label: "Traffic", icon: Activity },
  { id: "network", label: "Network", icon: Globe },
  { id: "console", label: "Console", icon: Terminal },
];

export function TabBar({ serverId, active, remote }: { serverId: string; active: TabId; remote: boolean }) {
  // Refusals (e.g. an elicitation outside the spec's subset) are counted on the Requests tab,
  // so the user sees that something was said without watching that tab.
  const warnings = useAsks((s) => s.servers[serverId]?.warnings.length ?? 0);
  // Tasks waiting for the user's answer are counted on the Tasks tab.
  const waiting = useWaitingTasks(serverId);
  const tabs = TABS.filter(({ id }) => remote || id !== "oauth");
  // The tab list's keys (WAI-ARIA tabs): arrows and Home/End move and show; one Tab stop.
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const next = nextTab(tabs.map((t) => t.id), active, event.key);
    if (next === null) return;
    event.preventDefault();
    setTab(serverId, next);
    event.currentTarget.querySelector<HTMLElement>(`[data-testid="tab-${next}"]`)?.focus();
  };
  return (
    <nav className="tab-bar" role="tablist" aria-label="Server views" onKeyDown={onKeyDown}>
      {tabs.map(({ id, label, icon: Icon }) => (
        <button
          key={id}
          type="button"
          role="tab"
          aria-selected={active === id}
          tabIndex={active === id ? 0 : -1}
          className={`tab${active === id ? " active" : ""}`}
          data-testid={`tab-${id}`}
          onClick={() => setTab(serverId, id)}
        >
          <Icon size={14} />
          {label}
          {id === "requests" && warnings > 0 && (
            <span className="tab-count warning" data-testid="requests-warning-count" title="Requests the client refused">
              {warnings}
            </span>
          )}
          {id === "tasks" && waiting > 0 && (
            <span className="tab-count warning" data-testid="tasks-waiting-count" title="Tasks waiting for your answer">
              {waiting}
            </span>
          )}
        </button>
      ))}
    </nav>
  );
}

/** The tab an arrow, Home or End key moves to (wrapping), or null for other keys. */
export function nextTab(ids: readonly TabId[], active: TabId, key: string): TabId | null {
  const at = Math.max(0, ids.indexOf(active));
  const to: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: ids.length - 1 };
  const index = to[key];
  if (index === undefined || ids.length === 0) return null;
  return ids[(index + ids.length) % ids.length] ?? null;
}
