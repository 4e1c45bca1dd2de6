// Carries out what a palette item names, with the UI's existing actions.
import { connect, disconnect, reconnect } from "../actions/connections";
import { selectPrompt, selectResource, selectTool, setTab } from "../actions/view";
import { select } from "../state/connections";
import { runCall } from "../state/saved";
import { isObject } from "../json";
import { clickSidebarButton, runShortcut, showTab } from "./commands";
import { closeOverlay, openOverlay } from "./overlays";
import type { PaletteAction } from "./paletteItems";

export function runPaletteAction(action: PaletteAction): void {
  // The palette closes first, so the focus goes back before a dialog takes it.
  closeOverlay();
  switch (action.type) {
    case "select-server":
      return select(action.id);
    case "connect":
      select(action.id);
      return void connect(action.id);
    case "disconnect":
      return void disconnect(action.id);
    case "reconnect":
      return void reconnect(action.id);
    case "open-tool":
      setTab(action.serverId, "tools");
      return selectTool(action.serverId, action.name);
    case "open-resource":
      setTab(action.serverId, "resources");
      return selectResource(action.serverId, action.uri);
    case "open-prompt":
      setTab(action.serverId, "prompts");
      return selectPrompt(action.serverId, action.name);
    case "run-saved": {
      const { call } = action;
      setTab(call.server_id, "saved");
      return void runCall(call.server_id, call.id, call.kind, call.target, isObject(call.arguments) ? call.arguments : {});
    }
    case "tab":
      return showTab(action.tab);
    case "add-server":
      return clickSidebarButton("add-server-button");
    case "import":
      return clickSidebarButton("import-button");
    case "shortcut":
      return runShortcut(action.action);
    case "about":
      return openOverlay("about");
    case "settings":
      return openOverlay("settings");
    case "audit-connected":
      return openOverlay("audit");
    case "shortcuts":
      return openOverlay("shortcuts");
    case "welcome":
      // No server selected: the main area shows the welcome view (App.tsx).
      return select(null);
  }
}
