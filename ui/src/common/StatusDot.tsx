import type { ConnectionStatus } from "../bindings/ConnectionStatus";

const LABELS: Record<ConnectionStatus["state"], string> = {
  disconnected: "Disconnected",
  connecting: "Connecting",
  ready: "Ready",
  failed: "Failed",
};

export function statusLabel(state: ConnectionStatus["state"]): string {
  return LABELS[state];
}

/** grey / amber / green / red, by connection state. */
export function StatusDot({ state }: { state: ConnectionStatus["state"] }) {
  return <span className={`status-dot status-${state}`} role="img" aria-label={LABELS[state]} title={LABELS[state]} />;
}
