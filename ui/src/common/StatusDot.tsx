import { useTranslation } from "react-i18next";
import type { ConnectionStatus } from "../bindings/ConnectionStatus";
import i18n from "../i18n";

/** "Disconnected", "Connecting", "Ready", "Failed", in the current language. */
export function statusLabel(state: ConnectionStatus["state"]): string {
  return i18n.t(`common:connectionState.${state}`);
}

/** grey / amber / green / red, by connection state. */
export function StatusDot({ state }: { state: ConnectionStatus["state"] }) {
  const { t } = useTranslation("common");
  const label = t(`connectionState.${state}`);
  return <span className={`status-dot status-${state}`} role="img" aria-label={label} title={label} />;
}
