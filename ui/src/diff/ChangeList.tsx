import { useTranslation } from "react-i18next";
import type { ValueChange } from "../bindings/ValueChange";

const show = (value: unknown): string => (value === undefined || value === null ? "" : JSON.stringify(value, null, 2));

/** Each difference: its JSON Pointer, what it was and what it became. */
export function ChangeList({ changes }: { changes: readonly ValueChange[] }) {
  const { t } = useTranslation("diff");
  return (
    <table className="change-list" data-testid="change-list">
      <thead>
        <tr>
          <th>{t("path")}</th>
          <th>{t("before")}</th>
          <th>{t("after")}</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c, i) => (
          <tr key={i} data-testid="change" data-path={c.path}>
            <td className="mono">{c.path || "/"}</td>
            <td>{c.before === null ? <span className="muted">{t("absent")}</span> : <pre className="mono change-value">{show(c.before)}</pre>}</td>
            <td>{c.after === null ? <span className="muted">{t("absent")}</span> : <pre className="mono change-value">{show(c.after)}</pre>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
