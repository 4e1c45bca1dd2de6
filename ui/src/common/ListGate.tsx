import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ListKind } from "../ipc";
import { ConnectButton } from "./ConnectButton";
import { Connecting } from "./Connecting";
import { EmptyState } from "./EmptyState";
import type { ServerState } from "../state/connections";
import { offers } from "../state/lists";

interface Props {
  server: ServerState;
  kind: ListKind;
  /** No longer read: the words follow `kind` (kept so callers need not change). */
  noun?: string;
  children: ReactNode;
}

/** Says why a list cannot be shown (not connected, not offered) or shows it. */
export function ListGate({ server, kind, children }: Props) {
  const { t } = useTranslation("common");
  if (!offers(server, kind) && server.status.state === "ready") {
    return (
      <EmptyState title={t("listGate.notOfferedTitle")} testId="list-gate">
        {t(`listGate.notOffered.${kind}`)}
      </EmptyState>
    );
  }
  return (
    <ReadyGate server={server} notConnected={t(`listGate.connectTo.${kind}`)}>
      {children}
    </ReadyGate>
  );
}

/** A view that needs the live connection: "Connecting…" while it connects, else why not and
 * a Connect button, until it is ready. */
export function ReadyGate({ server, notConnected, children }: { server: ServerState; notConnected: string; children: ReactNode }) {
  const { t } = useTranslation("common");
  const state = server.status.state;
  if (state === "connecting") {
    return (
      <EmptyState testId="list-gate">
        <Connecting />
      </EmptyState>
    );
  }
  if (state !== "ready") {
    return (
      <EmptyState title={t("listGate.notConnected")} action={<ConnectButton server={server} />} testId="list-gate">
        {notConnected}
      </EmptyState>
    );
  }
  return <>{children}</>;
}
