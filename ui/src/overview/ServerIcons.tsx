import { useTranslation } from "react-i18next";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { RemoteIcons } from "../common/RemoteIcons";
import { serverIcons } from "./icons";

/** The server's icons (serverInfo.icons): data: images, size-capped; https: ones on request. */
export function ServerIcons({ serverInfo }: { serverInfo: JsonValue | undefined }) {
  const { t } = useTranslation("overview");
  const { shown, remote } = serverIcons(serverInfo);
  if (shown.length === 0 && remote.length === 0) return null;
  return (
    <>
      <dt>{t("fact.icons")}</dt>
      <dd className="server-icons" data-testid="server-icons">
        {shown.map((icon) => (
          <img key={icon.src} className="server-icon" src={icon.src} alt={t("fact.icon")} referrerPolicy="no-referrer" title={icon.sizes} />
        ))}
        <RemoteIcons urls={remote} className="server-icon" />
      </dd>
    </>
  );
}
