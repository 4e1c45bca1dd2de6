// Where the user is in each server's view: the tab, the selected tool, resource and prompt, and
// what the forms hold. Kept per server, so switching servers keeps each one's place.
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { updateServer, type TabId } from "../state/connections";
import { focusHistory } from "../state/saved";
import { selectExchange, setTrafficView } from "../state/traffic";

export function setTab(id: string, tab: TabId): void {
  updateServer(id, (s) => (s.tab === tab ? s : { ...s, tab }));
}

export function selectTool(id: string, name: string | null): void {
  updateServer(id, (s) => ({ ...s, tools: { ...s.tools, selected: name } }));
}

export function setToolForm(id: string, name: string, formData: JsonValue): void {
  updateServer(id, (s) => ({
    ...s,
    tools: { ...s.tools, forms: { ...s.tools.forms, [name]: formData } },
  }));
}

export function selectResource(id: string, uri: string | null): void {
  updateServer(id, (s) => ({
    ...s,
    resources: { ...s.resources, selected: uri, uriInput: uri ?? s.resources.uriInput },
  }));
}

export function setResourceUriInput(id: string, uriInput: string): void {
  updateServer(id, (s) => ({ ...s, resources: { ...s.resources, uriInput } }));
}

export function selectPrompt(id: string, name: string | null): void {
  updateServer(id, (s) => ({ ...s, prompts: { ...s.prompts, selected: name } }));
}

export function setPromptArg(id: string, prompt: string, arg: string, value: string): void {
  updateServer(id, (s) => ({
    ...s,
    prompts: {
      ...s.prompts,
      args: { ...s.prompts.args, [prompt]: { ...s.prompts.args[prompt], [arg]: value } },
    },
  }));
}

/** The Network tab with HTTP exchange `seq` selected (the one that carried a frame). */
export function showExchange(id: string, seq: number): void {
  selectExchange(id, seq);
  setTab(id, "network");
}

/** Shows one entry of the History (under Saved), marked (from an eval trace's call). */
export function showHistoryEntry(id: string, entryId: string): void {
  focusHistory(id, entryId);
  setTab(id, "saved");
}

/** Shows one frame in the Traffic tab (from an exchange that carried it, a toast, the timeline). */
export function showFrame(id: string, seq: number): void {
  setTab(id, "traffic");
  // Stop following so the list scrolls to it and stays there (the detail pane shows it even
  // when the filter hides its row).
  setTrafficView(id, { follow: false, selectedSeq: seq });
}
