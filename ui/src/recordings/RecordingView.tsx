import { Activity, ChartGantt, FileText, Globe, Info, KeyRound, MessageSquare, Play, Terminal, Wrench, X } from "lucide-react";
import { useState, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import type { RecordingInfo } from "../bindings/RecordingInfo";
import type { ServerTarget } from "../bindings/ServerTarget";
import { setTab } from "../actions/view";
import { ConsoleTab } from "../console/ConsoleTab";
import { NetworkTab } from "../network/NetworkTab";
import { TimelineTab } from "../timeline/TimelineTab";
import { TrafficTab } from "../traffic/TrafficTab";
import { useServer, type TabId } from "../state/connections";
import { CompareButton } from "../diff/CompareDialog";
import { closeRecording } from "./actions";
import { ReplayDialog } from "./ReplayDialog";
import { RecordedList } from "./RecordedList";
import { RecordingOverview } from "./RecordingOverview";
import { RecordedSignIn } from "./RecordedSignIn";
import { TabButton } from "../server/TabButton";

/** The tabs a recording has: what was recorded, nothing that would talk to a server. */
const TABS: Array<{ id: TabId; icon: ComponentType<{ size?: number }> }> = [
  { id: "overview", icon: Info },
  { id: "tools", icon: Wrench },
  { id: "resources", icon: FileText },
  { id: "prompts", icon: MessageSquare },
  { id: "oauth", icon: KeyRound },
  { id: "traffic", icon: Activity },
  { id: "timeline", icon: ChartGantt },
  { id: "network", icon: Globe },
  { id: "console", icon: Terminal },
];

/** What the record file says was recorded, as a target the Network tab understands. */
function targetOf(info: RecordingInfo): ServerTarget {
  const target = (info.target ?? {}) as Record<string, unknown>;
  if (target.transport === "http" && typeof target.url === "string") {
    return {
      transport: "http",
      url: target.url,
      headers: [],
      secret_headers: [],
      oauth: { client_id: null, client_metadata_url: null, dpop: "off", workload_identity: null },
      mode: "auto",
    } as unknown as ServerTarget;
  }
  return { transport: "stdio", command: typeof target.command === "string" ? target.command : "", args: [], env: [], cwd: null } as unknown as ServerTarget;
}

/** A reopened recording: read-only, every view working offline. */
export function RecordingView({ info }: { info: RecordingInfo }) {
  const { t } = useTranslation(["recordings", "server"]);
  const server = useServer(info.id);
  const [replaying, setReplaying] = useState(false);
  if (!server) return null;
  const tab = TABS.some((x) => x.id === server.tab) ? server.tab : "overview";
  return (
    <section className="server-view" aria-label={info.name} data-testid="recording-view">
      <header className="server-header">
        <div className="server-header-title">
          <h1>{info.name}</h1>
          <div className="server-header-status">
            <span className="badge" data-testid="recording-read-only">
              {t("readOnly")}
            </span>
          </div>
          <div className="server-header-command mono" title={info.path}>
            {info.path}
          </div>
        </div>
        <div className="server-header-actions">
          <button type="button" className="button" data-testid="replay-button" onClick={() => setReplaying(true)}>
            <Play size={14} aria-hidden />
            {t("replay.button")}
          </button>
          <CompareButton id={info.id} />
          <button type="button" className="button" data-testid="close-recording" onClick={() => void closeRecording(info.id)}>
            <X size={14} aria-hidden />
            {t("close")}
          </button>
        </div>
      </header>
      <nav className="tab-bar" role="tablist" aria-label={t("server:tabs.label")}>
        {TABS.map(({ id, icon }) => (
          <TabButton
            key={id}
            id={id}
            active={tab === id}
            icon={icon}
            label={t(`server:tabs.${id}`)}
            onSelect={() => setTab(info.id, id)}
          />
        ))}
      </nav>
      <div className="tab-panel" role="tabpanel">
        {tab === "overview" && <RecordingOverview info={info} />}
        {tab === "tools" && <RecordedList kind="tools" items={info.tools} />}
        {tab === "resources" && <RecordedList kind="resources" items={info.resources} templates={info.resource_templates} />}
        {tab === "prompts" && <RecordedList kind="prompts" items={info.prompts} />}
        {tab === "oauth" && <RecordedSignIn info={info} />}
        {tab === "traffic" && <TrafficTab key={info.id} server={server} />}
        {tab === "timeline" && <TimelineTab key={info.id} server={server} />}
        {tab === "network" && <NetworkTab key={info.id} server={server} target={targetOf(info)} />}
        {tab === "console" && <ConsoleTab key={info.id} server={server} />}
      </div>
      {replaying && <ReplayDialog info={info} onClose={() => setReplaying(false)} />}
    </section>
  );
}
