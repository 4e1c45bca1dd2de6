import type { ServerEntry } from "../bindings/ServerEntry";
import { CheckTab } from "../check/CheckTab";
import { ConsoleTab } from "../console/ConsoleTab";
import { McpAppsView } from "../mcp-apps/McpAppsView";
import { NetworkTab } from "../network/NetworkTab";
import { OAuthTab } from "../oauth/OAuthTab";
import { OverviewTab } from "../overview/OverviewTab";
import { PlaygroundView } from "../playground/PlaygroundView";
import { SkillsTab } from "../skills/SkillsTab";
import { EvalsTab } from "../evals/EvalsTab";
import { PromptsTab } from "../prompts/PromptsTab";
import { RequestsTab } from "../requests/RequestsTab";
import { ResourcesTab } from "../resources/ResourcesTab";
import { LoadTab } from "../load/LoadTab";
import { ListChangedNotice } from "../saved/ListChangedNotice";
import { SaveCallDialog } from "../saved/SaveCallDialog";
import { SavedTab } from "../saved/SavedTab";
import { TasksTab } from "../tasks/TasksTab";
import { ToolsTab } from "../tools/ToolsTab";
import { TimelineTab } from "../timeline/TimelineTab";
import { TrafficTab } from "../traffic/TrafficTab";
import { ConnectionError } from "./ConnectionError";
import { ServerHeader } from "./ServerHeader";
import { TabBar } from "./TabBar";
import { useServer } from "../state/connections";
import { useServerLists } from "../state/lists";

/** Everything about the selected server. */
export function ServerView({ entry }: { entry: ServerEntry }) {
  const server = useServer(entry.id);
  const lists = useServerLists(entry.id);
  if (!server) return null;
  return (
    <section className="server-view" aria-label={entry.name}>
      <ServerHeader entry={entry} server={server} />
      <ConnectionError server={server} />
      <TabBar serverId={entry.id} active={server.tab} remote={entry.target.transport === "http"} />
      <ListChangedNotice serverId={entry.id} lists={lists} />
      <SaveCallDialog />
      <div className="tab-panel" role="tabpanel">
        {server.tab === "overview" && <OverviewTab server={server} />}
        {server.tab === "tools" && <ToolsTab key={entry.id} server={server} />}
        {server.tab === "resources" && <ResourcesTab key={entry.id} server={server} />}
        {server.tab === "prompts" && <PromptsTab key={entry.id} server={server} />}
        {server.tab === "skills" && <SkillsTab key={entry.id} server={server} />}
        {server.tab === "apps" && <McpAppsView key={entry.id} server={server} />}
        {server.tab === "saved" && <SavedTab key={entry.id} server={server} />}
        {server.tab === "requests" && <RequestsTab key={entry.id} server={server} />}
        {server.tab === "playground" && <PlaygroundView key={entry.id} server={server} />}
        {server.tab === "tasks" && <TasksTab key={entry.id} server={server} />}
        {server.tab === "check" && <CheckTab key={entry.id} server={server} />}
        {server.tab === "load" && <LoadTab key={entry.id} server={server} />}
        {server.tab === "evals" && <EvalsTab key={entry.id} server={server} />}
        {server.tab === "oauth" && <OAuthTab key={entry.id} server={server} />}
        {server.tab === "traffic" && <TrafficTab key={entry.id} server={server} />}
        {server.tab === "timeline" && <TimelineTab key={entry.id} server={server} />}
        {server.tab === "network" && <NetworkTab key={entry.id} server={server} target={entry.target} />}
        {server.tab === "console" && <ConsoleTab key={entry.id} server={server} />}
      </div>
    </section>
  );
}
