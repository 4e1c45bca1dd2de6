import { useTranslation } from "react-i18next";
import type { IconView } from "../bindings/IconView";
import { placeIcons } from "../common/icons";
import { RemoteIcons } from "../common/RemoteIcons";

/** The server's icons (`serverInfo.icons`): data: images, size-capped; https: ones on request. */
export function ServerIcons({ icons }: { icons: IconView[] }) {
  const { t } = useTranslation("overview");
  const { shown, remote } = placeIcons(icons);
  if (shown.length === 0 && remote.length === 0) return null;
  return (
    <>
      <dt>{t("fact.icons")}</dt>
      <dd className="server-icons" data-testid="server-icons">
        {shown.map((icon) => (
          <img
            key={icon.src}
            className="server-icon"
            src={icon.src}
            alt={t("fact.icon")}
            referrerPolicy="no-referrer"
            title={icon.sizes.join(" ") || undefined}
          />
        ))}
        <RemoteIcons urls={remote} className="server-icon" />
      </dd>
    </>
  );
}
