import type { ReactNode } from "react";
import type { ListKind } from "../ipc";
import { EmptyState } from "./EmptyState";
import type { ServerState } from "../state/connections";
import { offers } from "../state/lists";

interface Props {
  server: ServerState;
  kind: ListKind;
  /** "tools", "resources", "prompts". */
  noun: string;
  children: ReactNode;
}

/** Says why a list cannot be shown (not connected, not offered) or shows it. */
export function ListGate({ server, kind, noun, children }: Props) {
  const state = server.status.state;
  if (state === "connecting") return <EmptyState>Connecting…</EmptyState>;
  if (state !== "ready") {
    return <EmptyState>Connect to the server to list its {noun}.</EmptyState>;
  }
  if (!offers(server, kind)) {
    return (
      <EmptyState>
        This server does not offer {noun}: its handshake declared no “{kind === "resource_templates" ? "resources" : kind}”
        capability.
      </EmptyState>
    );
  }
  return <>{children}</>;
}
