import {
  Activity,
  AppWindow,
  Bookmark,
  Bot,
  ChartGantt,
  ListChecks,
  ShieldCheck,
  FileText,
  FlaskConical,
  Gauge,
  KeyRound,
  Globe,
  GraduationCap,
  Info,
  MessageSquare,
  MessageCircleReply as Reply,
  Terminal,
  Wrench,
} from "lucide-react";
import type { ComponentType, KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { setTab } from "../actions/view";
import { useAsks } from "../state/asks";
import { useWaitingTasks } from "../state/tasks";
import type { TabId } from "../state/connections";
import { TabButton } from "./TabButton";

/** The groups of a server's views: what the server offers, what happened, and working with it. */
export type TabGroupId = "surface" | "activity" | "work";

type Tab = { id: TabId; icon: ComponentType<{ size?: number }> };

// The label of each tab is `server:tabs.<id>`, of each group `server:tabs.groups.<id>`. Groups
// wrap as whole units onto a second row when the window is narrow (never sideways scrolling:
// every view stays one click away, and the next views find room in a group).
export const TAB_GROUPS: ReadonlyArray<{ id: TabGroupId; tabs: readonly Tab[] }> = [
  {
    id: "surface",
    tabs: [
      { id: "overview", icon: Info },
      { id: "tools", icon: Wrench },
      { id: "resources", icon: FileText },
      { id: "prompts", icon: MessageSquare },
      { id: "skills", icon: GraduationCap },
      { id: "apps", icon: AppWindow },
    ],
  },
  {
    id: "activity",
    tabs: [
      { id: "traffic", icon: Activity },
      { id: "timeline", icon: ChartGantt },
      { id: "network", icon: Globe },
      { id: "console", icon: Terminal },
    ],
  },
  {
    id: "work",
    tabs: [
      { id: "saved", icon: Bookmark },
      { id: "requests", icon: Reply },
      { id: "playground", icon: Bot },
      { id: "tasks", icon: ListChecks },
      { id: "check", icon: ShieldCheck },
      { id: "load", icon: Gauge },
      { id: "evals", icon: FlaskConical },
      { id: "oauth", icon: KeyRound },
    ],
  },
];

/** The groups with the tabs this server has (OAuth only for a remote one). */
export function visibleGroups(remote: boolean) {
  return TAB_GROUPS.map((group) => ({
    ...group,
    tabs: group.tabs.filter(({ id }) => remote || id !== "oauth"),
  })).filter((group) => group.tabs.length > 0);
}

export function TabBar({ serverId, active, remote }: { serverId: string; active: TabId; remote: boolean }) {
  const { t } = useTranslation("server");
  // Refusals (e.g. an elicitation outside the spec's subset) are counted on the Requests tab,
  // so the user sees that something was said without watching that tab.
  const warnings = useAsks((s) => s.servers[serverId]?.warnings.length ?? 0);
  // Tasks waiting for the user's answer are counted on the Tasks tab.
  const waiting = useWaitingTasks(serverId);
  const groups = visibleGroups(remote);
  const order = groups.flatMap((group) => group.tabs.map((tab) => tab.id));
  // The tab list's keys (WAI-ARIA tabs): arrows and Home/End move through every group's tabs
  // in reading order and show the tab; one Tab stop.
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const next = nextTab(order, active, event.key);
    if (next === null) return;
    event.preventDefault();
    setTab(serverId, next);
    event.currentTarget.querySelector<HTMLElement>(`[data-testid="tab-${next}"]`)?.focus();
  };
  return (
    <nav className="tab-bar" role="tablist" aria-label={t("tabs.label")} onKeyDown={onKeyDown}>
      {groups.map((group) => (
        <div
          key={group.id}
          className="tab-group"
          role="presentation"
          data-testid={`tab-group-${group.id}`}
        >
          <span className="tab-group-label" id={`tab-group-${serverId}-${group.id}`}>
            {t(`tabs.groups.${group.id}`)}
          </span>
          {group.tabs.map(({ id, icon }) => (
            <TabButton
              key={id}
              id={id}
              active={active === id}
              icon={icon}
              label={t(`tabs.${id}`)}
              describedBy={`tab-group-${serverId}-${group.id}`}
              onSelect={() => setTab(serverId, id)}
            >
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
            </TabButton>
          ))}
        </div>
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
