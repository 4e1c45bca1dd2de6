import { Play } from "lucide-react";
import { useTranslation } from "react-i18next";
import { connect } from "../actions/connections";
import type { ServerState } from "../state/connections";

/** The action of an empty state that waits for a connection: connects the server. */
export function ConnectButton({ server }: { server: ServerState }) {
  const { t } = useTranslation("common");
  return (
    <button
      type="button"
      className="button button-primary"
      data-testid="empty-state-connect"
      disabled={server.busy !== null}
      onClick={() => void connect(server.id)}
    >
      <Play size={14} aria-hidden />
      {t("connect")}
    </button>
  );
}
