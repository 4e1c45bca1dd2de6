// What the Skills view does on the user's clicks: list, name a skill by URI, load a skill,
// read a file, open a folder. Each fetch goes through the engine, which verifies it.
import type { SkillEntry } from "../bindings/SkillEntry";
import { errorMessage, skillsIpc } from "../ipc";
import { changeSkills, serverSkills, type Fetch } from "../state/skills";

export async function listSkills(serverId: string): Promise<void> {
  changeSkills(serverId, (s) => ({ ...s, status: "loading", error: null }));
  try {
    const view = await skillsIpc.skillsList(serverId);
    changeSkills(serverId, (s) => ({ ...s, status: "loaded", view }));
  } catch (error) {
    changeSkills(serverId, (s) => ({ ...s, status: "failed", error: errorMessage(error) }));
  }
}

/** Lists the server's skills once (the view and the playground's picker). */
export function ensureSkills(serverId: string): void {
  if (serverSkills(serverId).status === "idle") void listSkills(serverId);
}

export function selectSkill(serverId: string, uri: string): void {
  changeSkills(serverId, (s) => ({ ...s, selected: uri, openFile: null }));
}

/** A skill named by the URI of its SKILL.md, listed or not: its entry joins the list. */
export async function getSkillByUri(serverId: string, uri: string): Promise<string | null> {
  try {
    const entry = await skillsIpc.skillsGet(serverId, uri);
    changeSkills(serverId, (s) => ({
      ...s,
      extra: [...s.extra.filter((e) => e.uri !== entry.uri), entry],
      selected: entry.uri,
      openFile: null,
    }));
    return null;
  } catch (error) {
    return errorMessage(error);
  }
}

async function fetched<T>(work: Promise<T>): Promise<Fetch<T>> {
  try {
    return { status: "done", value: await work };
  } catch (error) {
    return { status: "failed", error: errorMessage(error) };
  }
}

export async function loadSkill(serverId: string, entry: SkillEntry): Promise<void> {
  changeSkills(serverId, (s) => ({ ...s, loaded: { ...s.loaded, [entry.uri]: { status: "running" } } }));
  const result = await fetched(skillsIpc.skillsLoad(serverId, entry));
  changeSkills(serverId, (s) => ({ ...s, loaded: { ...s.loaded, [entry.uri]: result } }));
}

export async function readSkillFile(serverId: string, entry: SkillEntry, uri: string): Promise<void> {
  changeSkills(serverId, (s) => ({ ...s, openFile: uri, files: { ...s.files, [uri]: { status: "running" } } }));
  const result = await fetched(skillsIpc.skillsRead(serverId, entry, uri));
  changeSkills(serverId, (s) => ({ ...s, files: { ...s.files, [uri]: result } }));
}

export async function openFolder(serverId: string, uri: string): Promise<void> {
  changeSkills(serverId, (s) => ({ ...s, folders: { ...s.folders, [uri]: { status: "running" } } }));
  const result = await fetched(skillsIpc.skillsDirectory(serverId, uri, null));
  changeSkills(serverId, (s) => ({ ...s, folders: { ...s.folders, [uri]: result } }));
}

export function closeFolder(serverId: string, uri: string): void {
  changeSkills(serverId, (s) => {
    const folders = { ...s.folders };
    delete folders[uri];
    return { ...s, folders };
  });
}
