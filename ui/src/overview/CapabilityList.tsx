import { useTranslation } from "react-i18next";
import type { CapabilitiesView } from "../bindings/CapabilitiesView";

/** `tools (listChanged)`, `resources (subscribe, listChanged)`, `logging`… one per line. */
export function CapabilityList({ offers }: { offers: CapabilitiesView }) {
  const { t } = useTranslation("overview");
  if (offers.declared.length === 0) {
    return (
      <p className="muted" data-testid="no-capabilities">
        {t("noCapabilities")} {t("noCapabilitiesHow")}
      </p>
    );
  }
  return (
    <ul className="capabilities">
      {offers.declared.map((capability) => {
        // A setting that is not simply `true` is shown as sent (raw JSON).
        const badges = [...capability.flags, ...capability.settings.map((s) => `${s.key}: ${JSON.stringify(s.value)}`)];
        return (
          <li key={capability.name}>
            <span className="capability-name mono">{capability.name}</span>
            {badges.map((badge) => (
              <span key={badge} className="badge">
                {badge}
              </span>
            ))}
          </li>
        );
      })}
    </ul>
  );
}
