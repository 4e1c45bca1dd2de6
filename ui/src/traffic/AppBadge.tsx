// The App badge of a traffic row: the frame went between Periscope and an MCP App view of the
// server (its own channel), not to or from the server.
import { useTranslation } from "react-i18next";
import "../styles/mcpApps.css";

export function AppBadge({ view }: { view: number | null | undefined }) {
  const { t } = useTranslation("mcpApps");
  if (view === null || view === undefined) return null;
  return (
    <span className="app-badge" data-testid="app-badge" data-view={view} title={t("traffic.badgeHint", { view })}>
      {t("traffic.badge")}
    </span>
  );
}
