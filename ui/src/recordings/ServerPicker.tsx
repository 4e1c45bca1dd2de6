import { useTranslation } from "react-i18next";
import { useConnections } from "../state/connections";

/** The catalog's servers that are connected now (where a request can go). */
export function useConnectedServers(): Array<{ id: string; name: string }> {
  const catalog = useConnections((s) => s.catalog);
  const servers = useConnections((s) => s.servers);
  return catalog.filter((e) => servers[e.id]?.status.state === "ready").map((e) => ({ id: e.id, name: e.name }));
}

/** A choice of connected server; says so when there is none. */
export function ServerPicker({ value, onChange, testId }: { value: string; onChange: (id: string) => void; testId: string }) {
  const { t } = useTranslation("recordings");
  const servers = useConnectedServers();
  if (servers.length === 0) return <p className="muted" data-testid={`${testId}-none`}>{t("picker.none")}</p>;
  return (
    <label className="field">
      <span className="field-label">{t("picker.label")}</span>
      <select data-testid={testId} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{t("picker.choose")}</option>
        {servers.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
    </label>
  );
}
