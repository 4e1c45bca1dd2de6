// The server catalog: the saved server entries.
import { invoke } from "@tauri-apps/api/core";
import type { ServerEntry } from "../bindings/ServerEntry";

export const catalogIpc = {
  catalogList: () => invoke<ServerEntry[]>("catalog_list"),
  catalogSave: (entry: ServerEntry) => invoke<ServerEntry[]>("catalog_save", { entry }),
  catalogRemove: (id: string) => invoke<ServerEntry[]>("catalog_remove", { id }),
};
