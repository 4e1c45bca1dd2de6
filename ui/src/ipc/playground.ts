// The playground: conversations with a configured model about connected servers.
import { Channel, invoke } from "@tauri-apps/api/core";
import type { Approval } from "../bindings/Approval";
import type { Attachment } from "../bindings/Attachment";
import type { ChatEvent } from "../bindings/ChatEvent";
import type { ChatSummary } from "../bindings/ChatSummary";
import type { Conversation } from "../bindings/Conversation";
import type { TurnStats } from "../bindings/TurnStats";

export const playgroundIpc = {
  chatNew: (serverIds: string[], providerId: string | null) =>
    invoke<Conversation>("chat_new", { serverIds, providerId }),
  chatList: () => invoke<ChatSummary[]>("chat_list"),
  chatLoad: (id: string) => invoke<Conversation>("chat_load", { id }),
  chatSend: (id: string, text: string, attachments: Attachment[], onEvent: (event: ChatEvent) => void) => {
    const channel = new Channel<ChatEvent>();
    channel.onmessage = onEvent;
    return invoke<TurnStats>("chat_send", { id, text, attachments, onEvent: channel });
  },
  chatApprove: (id: string, callId: string, approval: Approval) =>
    invoke<void>("chat_approve", { id, callId, approval }),
  chatCancel: (id: string) => invoke<boolean>("chat_cancel", { id }),
  chatSave: (id: string) => invoke<string>("chat_save", { id }),
  chatExportMarkdown: (id: string) => invoke<string | null>("chat_export_markdown", { id }),
};
