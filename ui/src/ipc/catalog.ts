// The server catalog: the saved server entries, what loading them found wrong, and a secret
// value of an entry shown on request.
import { invoke } from "@tauri-apps/api/core";
import type { SecretSlot } from "../bindings/SecretSlot";
import type { ServerEntry } from "../bindings/ServerEntry";

export const catalogIpc = {
  catalogList: () => invoke<ServerEntry[]>("catalog_list"),
  catalogSave: (entry: ServerEntry) => invoke<ServerEntry[]>("catalog_save", { entry }),
  catalogRemove: (id: string) => invoke<ServerEntry[]>("catalog_remove", { id }),
  catalogProblems: () => invoke<string[]>("catalog_problems"),
  catalogSecret: (serverId: string, slot: SecretSlot, name: string) =>
    invoke<string | null>("catalog_secret", { serverId, slot, name }),
};
