// The Skills view (SEP-2640): the listing (nothing fetched ahead of a click), a skill by URI,
// a skill loaded (its SKILL.md verified, its frontmatter compared), a file read verified, a
// folder's children.
import { invoke } from "@tauri-apps/api/core";
import type { DirectoryListing } from "../bindings/DirectoryListing";
import type { LoadedSkill } from "../bindings/LoadedSkill";
import type { SkillEntry } from "../bindings/SkillEntry";
import type { SkillFileRead } from "../bindings/SkillFileRead";
import type { SkillsView } from "../bindings/SkillsView";

export const skillsIpc = {
  skillsList: (serverId: string) => invoke<SkillsView>("skills_list", { serverId }),
  skillsGet: (serverId: string, uri: string) => invoke<SkillEntry>("skills_get", { serverId, uri }),
  skillsLoad: (serverId: string, entry: SkillEntry) => invoke<LoadedSkill>("skills_load", { serverId, entry }),
  skillsRead: (serverId: string, entry: SkillEntry, uri: string) =>
    invoke<SkillFileRead>("skills_read", { serverId, entry, uri }),
  skillsDirectory: (serverId: string, uri: string, cursor: string | null) =>
    invoke<DirectoryListing | null>("skills_directory", { serverId, uri, cursor }),
};
