// An app asks the host to open a link (`ui/open-link`): always asked, with the same dialog and
// warnings as a server's URL request, and a line saying which app (code the server shipped,
// running in a frame) asks.
import { useTranslation } from "react-i18next";
import type { UrlAnalysis } from "../bindings/UrlAnalysis";
import type { UrlDecision } from "../bindings/UrlDecision";
import type { McpAppLabel } from "../ipc/mcpApps";
import { UrlConsentDialog } from "./UrlConsentDialog";

interface Props {
  serverName: string;
  app: McpAppLabel;
  url: string;
  analysis: UrlAnalysis;
  onDecide: (decision: UrlDecision) => void;
}

export function AppOpenLink({ serverName, app, url, analysis, onDecide }: Props) {
  const { t } = useTranslation("mcpApps");
  return (
    <div data-testid="app-open-link" data-view={app.view}>
      <UrlConsentDialog
        serverName={serverName}
        message={t("asks.linkMessage", { title: app.title, uri: app.resource_uri })}
        url={url}
        analysis={analysis}
        onDecide={onDecide}
      />
    </div>
  );
}
