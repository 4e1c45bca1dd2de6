// A tool that differs from its pin (as the user first saw it, or last accepted it): what
// changed, each difference at its JSON Pointer with the text before and after (hidden
// characters marked), and Accept, which makes the tool as listed now its pin.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { loadList } from "../actions/lists";
import { ErrorBox } from "../common/ErrorBox";
import { ServerText } from "../common/ServerText";
import { errorMessage, ipc } from "../ipc";
import type { ItemChange } from "../bindings/ItemChange";

function shown(value: unknown, absent: string): string {
  if (value === undefined || value === null) return absent;
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function ToolChanged({ serverId, change }: { serverId: string; change: ItemChange }) {
  const { t } = useTranslation("tools");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const accept = () => {
    setBusy(true);
    setError(null);
    ipc
      .acceptToolChange(serverId, change.key)
      .then(() => loadList(serverId, "tools"))
      .catch((e: unknown) => setError(errorMessage(e)))
      .finally(() => setBusy(false));
  };
  return (
    <section className="warning-box tool-changed" role="alert" data-testid="tool-changed">
      <div className="warning-box-title">{t("pins.title")}</div>
      <p>{t("pins.body")}</p>
      <ul className="tool-changes">
        {change.changes.map((c) => (
          <li key={c.path} data-testid="tool-change" data-path={c.path}>
            <code className="mono">{c.path || "/"}</code>
            <div className="tool-change-before">
              <span aria-hidden>− </span>
              <ServerText text={shown(c.before, t("pins.absent"))} />
            </div>
            <div className="tool-change-after">
              <span aria-hidden>+ </span>
              <ServerText text={shown(c.after, t("pins.absent"))} />
            </div>
          </li>
        ))}
      </ul>
      {error && <ErrorBox message={error} />}
      <button type="button" className="button" disabled={busy} data-testid="tool-change-accept" onClick={accept}>
        {t("pins.accept")}
      </button>
    </section>
  );
}
