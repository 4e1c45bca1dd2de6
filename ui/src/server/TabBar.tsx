import { Activity, FileText, Globe, Info, MessageSquare, MessageCircleReply as Reply, Terminal, Wrench } from "lucide-react";
import type { ComponentType } from "react";
import { setTab } from "../actions";
import type { TabId } from "../store";

const TABS: Array<{ id: TabId; label: string; icon: ComponentType<{ size?: number }> }> = [
  { id: "overview", label: "Overview", icon: Info },
  { id: "tools", label: "Tools", icon: Wrench },
  { id: "resources", label: "Resources", icon: FileText },
  { id: "prompts", label: "Prompts", icon: MessageSquare },
  { id: "requests", label: "Requests", icon: Reply },
  { id: "traffic", label: "Traffic", icon: Activity },
  { id: "network", label: "Network", icon: Globe },
  { id: "console", label: "Console", icon: Terminal },
];

export function TabBar({ serverId, active }: { serverId: string; active: TabId }) {
  return (
    <nav className="tab-bar" role="tablist" aria-label="Server views">
      {TABS.map(({ id, label, icon: Icon }) => (
        <button
          key={id}
          type="button"
          role="tab"
          aria-selected={active === id}
          className={`tab${active === id ? " active" : ""}`}
          data-testid={`tab-${id}`}
          onClick={() => setTab(serverId, id)}
        >
          <Icon size={14} />
          {label}
        </button>
      ))}
    </nav>
  );
}
