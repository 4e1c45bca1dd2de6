// The Skills view of each server: the listing as the engine read it (with what changed since
// the user last saw it), the skill picked, and what was fetched of it on the user's clicks (its
// SKILL.md loaded, files read, folders opened). Verification is the engine's; this only holds it.
import type { DirectoryListing } from "../bindings/DirectoryListing";
import type { LoadedSkill } from "../bindings/LoadedSkill";
import type { SkillEntry } from "../bindings/SkillEntry";
import type { SkillFileRead } from "../bindings/SkillFileRead";
import type { SkillsView } from "../bindings/SkillsView";
import { Notifier, useNotifier, withEntry } from "./notifier";

export type Fetch<T> = { status: "running" } | { status: "done"; value: T } | { status: "failed"; error: string };

export interface ServerSkills {
  status: "idle" | "loading" | "loaded" | "failed";
  view: SkillsView | null;
  error: string | null;
  /** Skills named by URI that the listing did not have (`skills/get`). */
  extra: SkillEntry[];
  /** The URI of the SKILL.md of the skill shown. */
  selected: string | null;
  /** Each skill's SKILL.md as loaded, by its URI. */
  loaded: Record<string, Fetch<LoadedSkill>>;
  /** Each file read, by its URI. */
  files: Record<string, Fetch<SkillFileRead>>;
  /** The file shown, by URI. */
  openFile: string | null;
  /** Folders opened, by URI. */
  folders: Record<string, Fetch<DirectoryListing | null>>;
}

export interface SkillsState {
  servers: Record<string, ServerSkills>;
}

const fresh = (): ServerSkills => ({
  status: "idle",
  view: null,
  error: null,
  extra: [],
  selected: null,
  loaded: {},
  files: {},
  openFile: null,
  folders: {},
});
const EMPTY = fresh();

export const skills = new Notifier<SkillsState>({ servers: {} });

export const useServerSkills = (id: string): ServerSkills => useNotifier(skills, (s) => s.servers[id] ?? EMPTY);

export const serverSkills = (id: string): ServerSkills => skills.getState().servers[id] ?? EMPTY;

export function changeSkills(id: string, f: (s: ServerSkills) => ServerSkills): void {
  skills.update((state) => ({ ...state, servers: withEntry(state.servers, id, fresh, f) }));
}

/** Every skill the view knows: the listing's, then those named by URI. */
export function allSkills(s: ServerSkills): SkillEntry[] {
  const listed = s.view?.listing?.skills ?? [];
  return [...listed, ...s.extra.filter((e) => !listed.some((l) => l.uri === e.uri))];
}

/** How a skill is marked in the list: changed or new since the listing seen before. */
export function skillMark(s: ServerSkills, uri: string): "changed" | "added" | null {
  if (s.view?.changed.includes(uri)) return "changed";
  if (s.view?.added.includes(uri)) return "added";
  return null;
}

/** Names shared by several skills get their URI beside them (SEP-2640: names are labels). */
export function sharedNames(entries: SkillEntry[]): Set<string> {
  const seen = new Map<string, number>();
  for (const e of entries) seen.set(e.name, (seen.get(e.name) ?? 0) + 1);
  return new Set([...seen].filter(([, n]) => n > 1).map(([name]) => name));
}
