// Import of servers from other MCP hosts' configs: the host files found here, a preview of
// pasted text or of one of those files, and the import the user confirmed.
import { invoke } from "@tauri-apps/api/core";
import type { Dialect } from "../bindings/Dialect";
import type { HostFile } from "../bindings/HostFile";
import type { ImportPreview } from "../bindings/ImportPreview";
import type { ServerEntry } from "../bindings/ServerEntry";

export const hostImportIpc = {
  importHostFiles: () => invoke<HostFile[]>("import_host_files"),
  importPreview: (text: string, dialect: Dialect | null) =>
    invoke<ImportPreview>("import_preview", { text, dialect }),
  importPreviewFile: (path: string) => invoke<ImportPreview>("import_preview_file", { path }),
  importSave: (entries: ServerEntry[]) => invoke<ServerEntry[]>("import_save", { entries }),
};
