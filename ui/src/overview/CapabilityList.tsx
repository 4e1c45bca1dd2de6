import { useTranslation } from "react-i18next";
import type { JsonObject } from "../ipc";
import { isObject } from "../json";

/** `tools (listChanged)`, `resources (subscribe, listChanged)`, `logging`… one per line. */
export function CapabilityList({ capabilities }: { capabilities: JsonObject }) {
  const { t } = useTranslation("overview");
  const names = Object.keys(capabilities).sort();
  if (names.length === 0) {
    return (
      <p className="muted" data-testid="no-capabilities">
        {t("noCapabilities")} {t("noCapabilitiesHow")}
      </p>
    );
  }
  return (
    <ul className="capabilities">
      {names.map((name) => {
        const value = capabilities[name];
        const flags = isObject(value)
          ? Object.entries(value).map(([k, v]) => (v === true ? k : `${k}: ${JSON.stringify(v)}`))
          : [];
        return (
          <li key={name}>
            <span className="capability-name mono">{name}</span>
            {flags.map((flag) => (
              <span key={flag} className="badge">
                {flag}
              </span>
            ))}
          </li>
        );
      })}
    </ul>
  );
}
