import {
  Activity,
  AppWindow,
  Bookmark,
  Bot,
  ChartGantt,
  ChevronLeft,
  ChevronRight,
  ListChecks,
  FileText,
  KeyRound,
  Globe,
  Info,
  MessageSquare,
  MessageCircleReply as Reply,
  Terminal,
  Wrench,
} from "lucide-react";
import { useEffect, useLayoutEffect, useRef, useState, type ComponentType, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import { setTab } from "../actions/view";
import { useAsks } from "../state/asks";
import { useWaitingTasks } from "../state/tasks";
import type { TabId } from "../state/connections";
import { TabButton } from "./TabButton";

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
  const { ref, more, scroll, update } = useOverflow(active);
  return (
    <div className={`tab-bar-frame${more.before ? " more-before" : ""}${more.after ? " more-after" : ""}`}>
      {more.before && <ScrollArrow side="before" onClick={() => scroll(-1)} />}
      <nav className="tab-bar" role="tablist" aria-label={t("tabs.label")} onKeyDown={onKeyDown} ref={ref} onScroll={update}>
        {tabs.map(({ id, icon }) => (
          <TabButton
            key={id}
            id={id}
            active={active === id}
            icon={icon}
            label={t(`tabs.${id}`)}
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
      </nav>
      {more.after && <ScrollArrow side="after" onClick={() => scroll(1)} />}
    </div>
  );
}

/** The arrow at one end of the bar, toward tabs out of sight (the keys reach them without it). */
function ScrollArrow({ side, onClick }: { side: "before" | "after"; onClick: () => void }) {
  const { t } = useTranslation("server");
  const label = side === "before" ? t("tabs.scrollBefore") : t("tabs.scrollAfter");
  return (
    <button
      type="button"
      className={`tab-scroll ${side}`}
      data-testid={`tab-scroll-${side}`}
      aria-label={label}
      title={label}
      tabIndex={-1}
      onClick={onClick}
    >
      {side === "before" ? <ChevronLeft size={14} aria-hidden /> : <ChevronRight size={14} aria-hidden />}
    </button>
  );
}

/**
 * When the tabs are wider than the window (13 of them at 1280 px): which way more of them lie,
 * for the arrows at the bar's ends, and the active tab kept in view (the keys move focus
 * through every tab, and focus scrolls the bar by itself).
 */
function useOverflow(active: TabId) {
  const ref = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ before: false, after: false });
  const update = () => {
    const bar = ref.current;
    if (!bar) return;
    const before = bar.scrollLeft > 1;
    const after = bar.scrollLeft + bar.clientWidth < bar.scrollWidth - 1;
    setMore((old) => (old.before === before && old.after === after ? old : { before, after }));
  };
  const measure = useRef(update);
  useLayoutEffect(() => {
    measure.current = update;
  });
  // After every render (a tab came or went, a count grew) and on every resize.
  useEffect(() => measure.current());
  useEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const observer = typeof ResizeObserver === "function" ? new ResizeObserver(() => measure.current()) : null;
    observer?.observe(bar);
    return () => observer?.disconnect();
  }, []);
  useEffect(() => {
    const tab = ref.current?.querySelector<HTMLElement>(`[data-testid="tab-${active}"]`);
    // jsdom has no scrollIntoView.
    tab?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }, [active]);
  /** Scrolls the bar by most of its width, toward `direction`. */
  const scroll = (direction: 1 | -1) => {
    const bar = ref.current;
    bar?.scrollBy?.({ left: direction * bar.clientWidth * 0.8, behavior: "smooth" });
  };
  return { ref, more, scroll, update };
}

/** The tab an arrow, Home or End key moves to (wrapping), or null for other keys. */
export function nextTab(ids: readonly TabId[], active: TabId, key: string): TabId | null {
  const at = Math.max(0, ids.indexOf(active));
  const to: Record<string, number> = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: ids.length - 1 };
  const index = to[key];
  if (index === undefined || ids.length === 0) return null;
  return ids[(index + ids.length) % ids.length] ?? null;
}
