// The server catalog: the saved server entries (and the temporary ones opened from the command
// line), what loading them found wrong, a secret value of an entry shown on request, and which
// of the form's values look secret.
import { invoke } from "@tauri-apps/api/core";
import type { Problem } from "../bindings/Problem";
import type { SecretSlot } from "../bindings/SecretSlot";
import type { ServerEntry } from "../bindings/ServerEntry";
import type { TemporaryEntry } from "../bindings/TemporaryEntry";

export const catalogIpc = {
  catalogList: () => invoke<ServerEntry[]>("catalog_list"),
  /** Whether this launch seeded the catalog (no catalog file before): the welcome view opens. */
  firstLaunch: () => invoke<boolean>("first_launch"),
  catalogSave: (entry: ServerEntry) => invoke<ServerEntry[]>("catalog_save", { entry }),
  catalogRemove: (id: string) => invoke<ServerEntry[]>("catalog_remove", { id }),
  /** Entries opened from the command line and not saved yet. */
  catalogTemporary: () => invoke<TemporaryEntry[]>("catalog_temporary"),
  /** Saves a temporary entry to the catalog file. */
  catalogKeep: (id: string) => invoke<ServerEntry[]>("catalog_keep", { id }),
  catalogProblems: () => invoke<Problem[]>("catalog_problems"),
  catalogSecret: (serverId: string, slot: SecretSlot, name: string) =>
    invoke<string | null>("catalog_secret", { serverId, slot, name }),
  /** For each (name, value), whether the engine guesses it is a secret (the form's default). */
  secretHints: (pairs: Array<[string, string]>) => invoke<boolean[]>("secret_hints", { pairs }),
};
