// What the shortcuts and the palette's actions do, on the UI's existing state and actions: no
// protocol logic here. Each works on the selected server and says (in a toast) when there is
// nothing to do, rather than doing nothing silently.
import { connect, reconnect } from "../actions/connections";
import { setTab } from "../actions/view";
import { connections, select, serverState, type TabId } from "../state/connections";
import { ensureSaved, runCall, saved } from "../state/saved";
import type { JsonObject } from "../ipc";
import { isObject } from "../json";
import { notify } from "../feedback/toasts";
import i18n from "../i18n";
import { closeOverlay, openOverlay, toggleOverlay } from "./overlays";
import type { ShortcutAction } from "./shortcuts";

const selectedId = (): string | null => connections.getState().selectedId;

/** The server after (step 1) or before (step -1) the selected one, wrapping around. */
export function adjacentServer(ids: readonly string[], current: string | null, step: 1 | -1): string | null {
  if (ids.length === 0) return null;
  const at = current === null ? -1 : ids.indexOf(current);
  if (at === -1) return step === 1 ? ids[0]! : ids[ids.length - 1]!;
  return ids[(at + step + ids.length) % ids.length]!;
}

export function selectAdjacentServer(step: 1 | -1): void {
  const ids = connections.getState().catalog.map((e) => e.id);
  const next = adjacentServer(ids, selectedId(), step);
  if (next !== null) select(next);
}

/** Connects the selected server, or reconnects it when it is already up. */
export function connectSelected(): void {
  const id = selectedId();
  if (!id) return notify.info(i18n.t("keyboard:notice.noServer"));
  const state = serverState(id)?.status.state;
  void (state === "ready" || state === "connecting" ? reconnect(id) : connect(id));
}

/** Runs after React has shown what a state change asked for (a tab, a form). */
const afterRender = (run: () => void) => window.setTimeout(run, 0);

/**
 * Submits the selected tool's form, exactly as its Call button does (the form validates and
 * remembers its arguments): shows the Tools tab first when another tab is open.
 */
export function callSelectedTool(): void {
  const id = selectedId();
  if (!id) return notify.info(i18n.t("keyboard:notice.noServer"));
  const server = serverState(id);
  if (!server?.tools.selected) {
    setTab(id, "tools");
    return notify.info(i18n.t("keyboard:notice.selectTool"));
  }
  const click = () => {
    const button = document.querySelector<HTMLButtonElement>('[data-testid="call-tool-button"]');
    if (!button) notify.info(i18n.t("keyboard:notice.formNotShown"));
    else if (!button.disabled) button.click();
  };
  if (server.tab === "tools") click();
  else {
    setTab(id, "tools");
    afterRender(click);
  }
}

/** Runs the selected server's latest call again (from its history); its result shows in Saved. */
export function rerunLastCall(): void {
  const id = selectedId();
  if (!id) return notify.info(i18n.t("keyboard:notice.noServer"));
  ensureSaved(id);
  const last = saved.getState().servers[id]?.history[0];
  if (!last) return notify.info(i18n.t("keyboard:notice.noCall"));
  const args: JsonObject = isObject(last.arguments) ? last.arguments : {};
  setTab(id, "saved");
  void runCall(id, last.id, last.kind, last.target, args);
}

export function showTab(tab: TabId): void {
  const id = selectedId();
  if (!id) return notify.info(i18n.t("keyboard:notice.noServer"));
  setTab(id, tab);
}

/** Shows Traffic and puts the focus in its filter. */
export function focusTrafficFilter(): void {
  const id = selectedId();
  if (!id) return notify.info(i18n.t("keyboard:notice.noServer"));
  const focus = () => document.querySelector<HTMLInputElement>('[data-testid="traffic-filter"]')?.focus();
  if (serverState(id)?.tab === "traffic") focus();
  else {
    setTab(id, "traffic");
    afterRender(focus);
  }
}

/**
 * The sidebar owns its Add server and Import dialogs; the keyboard opens them through their
 * buttons, so they open exactly as a click opens them.
 */
export function clickSidebarButton(testId: "add-server-button" | "import-button" | "open-recording-button"): void {
  document.querySelector<HTMLButtonElement>(`[data-testid="${testId}"]`)?.click();
}

export function runShortcut(action: ShortcutAction): void {
  switch (action) {
    case "palette":
      return toggleOverlay("palette");
    case "shortcuts":
      return openOverlay("shortcuts");
    case "call-tool":
      closeOverlay();
      return callSelectedTool();
    case "rerun-last":
      closeOverlay();
      return rerunLastCall();
    case "connect":
      return connectSelected();
    case "focus-traffic-filter":
      return focusTrafficFilter();
    case "next-server":
      return selectAdjacentServer(1);
    case "previous-server":
      return selectAdjacentServer(-1);
    case "open-recording":
      // The sidebar's Open… button (recordings/RecordingsGroup.tsx) does it.
      closeOverlay();
      return clickSidebarButton("open-recording-button");
  }
}
