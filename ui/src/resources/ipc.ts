// The Rust commands for resources and prompts in depth (src-tauri/src/cmd_resources.rs).
import { invoke } from "@tauri-apps/api/core";
import type { Completion } from "../bindings/Completion";
import type { CompletionRef } from "../bindings/CompletionRef";
import type { ListPage } from "../bindings/ListPage";

/** The lists loaded page by page. */
export type PagedKind = "resources" | "resource_templates";

export const resourcesIpc = {
  /** One page: the first with `cursor` null, the next with the last page's `next_cursor`. */
  listPage: (serverId: string, kind: PagedKind, cursor: string | null) =>
    invoke<ListPage>("list_page", { serverId, kind, cursor }),
  complete: (
    serverId: string,
    reference: CompletionRef,
    argument: string,
    value: string,
    context: Record<string, string> | null,
  ) => invoke<Completion>("complete", { serverId, reference, argument, value, context }),
  subscribe: (serverId: string, uri: string) => invoke<void>("subscribe_resource", { serverId, uri }),
  unsubscribe: (serverId: string, uri: string) => invoke<void>("unsubscribe_resource", { serverId, uri }),
  /** Opens the native save dialog; resolves to the path written, or null when cancelled. */
  saveBlob: (uri: string, blob: string) => invoke<string | null>("save_blob", { uri, blob }),
};
