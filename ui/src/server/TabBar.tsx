import { Activity, AppWindow, Bookmark, Bot, ChartGantt, ListChecks, FileText, KeyRound, Globe, Info, MessageSquare, MessageCircleReply as Reply, Terminal, Wrench } from "lucide-react";
import type { ComponentType, KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { setTab } from "../actions";
import { useAsks } from "../state/asks";
import { useWaitingTasks } from "../state/tasks";
import type { TabId } from "../state/connections";

// The label of each tab is `server:tabs.<id>`.
const TABS: Array<{ id: TabId; icon: ComponentType<{ size?: number }> }> = [
  { id: "overview", icon: Info },
  { id: "tools", icon: Wrench },
  { id: "resources", icon: FileText },
  { id: "prompts", icon: MessageSquare },
  { id: "apps", icon: AppWindow },
  { id: "saved", icon: Bookmark },
  { id: "requests", icon: Reply },
  { id: "playground", icon: Bot },
  { id: "tasks", icon: ListChecks },
  { id: "oauth", icon: KeyRound },
  { id: "traffic", icon: Activity },
  { id: "timeline", icon: ChartGantt },
  { id: "network", icon: Globe },
  { id: "console", icon: Terminal },
];

export function TabBar({ serverId, active, remote }: { serverId: string; active: TabId; remote: boolean }) {
  const { t } = useTranslation("server");
  // Refusals (e.g. an elicitation outside the spec's subset) are counted on the Requests tab,
  // so the user sees that something was said without watching that tab.
  const warnings = useAsks((s) => s.servers[serverId]?.warnings.length ?? 0);
  // Tasks waiting for the user's answer are counted on the Tasks tab.
  const waiting = useWaitingTasks(serverId);
  const tabs = TABS.filter(({ id }) => remote || id !== "oauth");
  // The tab list's keys (WAI-ARIA tabs): arrows and Home/End move and show; one Tab stop.
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const next = nextTab(tabs.map((tab) => tab.id), active, event.key);
    if (next === null) return;
    event.preventDefault();
    setTab(serverId, next);
    event.currentTarget.querySelector<HTMLElement>(`[data-testid="tab-${next}"]`)?.focus();
  };
  return (
    <nav className="tab-bar" role="tablist" aria-label={t("tabs.label")} onKeyDown={onKeyDown}>
      {tabs.map(({ id, icon: Icon }) => (
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
          {t(`tabs.${id}`)}
          {id === "requests" && warnings > 0 && (
            <span className="tab-count warning" data-testid="requests-warning-count" title={t("tabs.refused")}>
              {warnings}
            </span>
          )}
          {id === "tasks" && waiting > 0 && (
            <span className="tab-count warning" data-testid="tasks-waiting-count" title={t("tabs.waiting")}>
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
