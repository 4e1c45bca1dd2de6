// The catalog of servers: loaded at startup and again when it changed outside the UI; entries
// saved, duplicated and removed. A failure is said where the user acted, never swallowed.
import type { ServerEntry } from "../bindings/ServerEntry";
import type { ServerTarget } from "../bindings/ServerTarget";
import i18n from "../i18n";
import { problemText } from "../i18n/problem";
import { errorMessage, ipc } from "../ipc";
import { addAppError, connections, select, serverState, setActionError, setCatalog, setCatalogError } from "../state/connections";
import { loadRecordings } from "./recordings";

export async function loadCatalog(): Promise<void> {
  try {
    // A first launch opens on the welcome view (the demo connects behind it), unless the app
    // was started on a server from the command line: that one is shown, whether it connects
    // or fails (its failure is what the user needs to see).
    const launched = await ipc.catalogTemporary();
    if ((await ipc.firstLaunch()) && launched.length === 0) select(null);
    setCatalog(await ipc.catalogList());
    selectLaunched(launched.map((entry) => entry.id));
  } catch (error) {
    setCatalogError(i18n.t("state:catalogFailed", { error: errorMessage(error) }));
  }
  try {
    // Entries the app could not read (kept in the file and backed up), said once at startup.
    for (const problem of await ipc.catalogProblems()) addAppError(problemText(problem));
  } catch (error) {
    addAppError(i18n.t("state:catalogCheckFailed", { error: errorMessage(error) }));
  }
}

/** Servers opened from a command line that the UI has shown already. */
const shownLaunches = new Set<string>();

/** Selects the newest server opened from a command line (this launch's or a second one's), once. */
function selectLaunched(ids: readonly string[]): void {
  const fresh = ids.filter((id) => !shownLaunches.has(id));
  for (const id of fresh) shownLaunches.add(id);
  const newest = fresh[fresh.length - 1];
  if (newest !== undefined) select(newest);
}

/** The catalog again, after it changed outside the UI (a server or a recording opened from the command line). */
export async function reloadCatalog(): Promise<void> {
  try {
    const launched = await ipc.catalogTemporary();
    setCatalog(await ipc.catalogList());
    selectLaunched(launched.map((entry) => entry.id));
  } catch (error) {
    setCatalogError(i18n.t("state:catalogFailed", { error: errorMessage(error) }));
  }
  await loadRecordings();
}

/** Adds or replaces an entry; resolves to an error message, or null when saved. */
export async function saveEntry(entry: ServerEntry): Promise<string | null> {
  try {
    setCatalog(await ipc.catalogSave(entry));
    select(entry.id);
    return null;
  } catch (error) {
    return i18n.t("state:saveFailed", { name: entry.name, error: errorMessage(error) });
  }
}

export function duplicateName(name: string, taken: readonly string[]): string {
  const base = name.replace(/ \(copy(?: \d+)?\)$/, "");
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? `${base} (copy)` : `${base} (copy ${n})`;
    if (!taken.includes(candidate)) return candidate;
  }
}

const copyPairs = (pairs: ReadonlyArray<[string, string]>) => pairs.map(([k, v]) => [k, v] as [string, string]);

function copyTarget(target: ServerTarget): ServerTarget {
  if (target.transport === "http") return { ...target, headers: copyPairs(target.headers) };
  return { ...target, args: [...target.args], env: copyPairs(target.env) };
}

export async function duplicateEntry(entry: ServerEntry): Promise<void> {
  const names = connections.getState().catalog.map((e) => e.name);
  const copy: ServerEntry = {
    id: crypto.randomUUID(),
    name: duplicateName(entry.name, names),
    target: copyTarget(entry.target),
    era: entry.era,
  };
  const error = await saveEntry(copy);
  if (error) setActionError(entry.id, error);
}

export async function removeEntry(id: string): Promise<void> {
  const server = serverState(id);
  try {
    if (server && (server.status.state === "ready" || server.status.state === "connecting")) {
      await ipc.disconnect(id);
    }
    setCatalog(await ipc.catalogRemove(id));
  } catch (error) {
    setActionError(id, i18n.t("state:removeFailed", { error: errorMessage(error) }));
  }
}
