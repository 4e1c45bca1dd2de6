// The host matrix of a check's audit (docs/audit.md, "Hosts"): one row per tool, one column per
// major host, each cell what the host does with the tool (accepts, warns, changes, rejects).
// A cell opened says why, rule by rule, with the rule's public source, and shows the tool as the
// host sends it when it changes it. The rules are the engine's data (audit/hosts.toml); each
// message comes in English and in Simplified Chinese, shown in the UI's language (the details
// and sources stay as the engine and the hosts write them).
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { HostReason } from "../bindings/HostReason";
import type { HostReport } from "../bindings/HostReport";
import type { HostVerdict } from "../bindings/HostVerdict";
import { ServerText } from "../common/ServerText";

/** The check's verdict class a host verdict is drawn with. */
const VERDICT_CLASS: Record<HostVerdict, string> = {
  accepts: "pass",
  warns: "skipped",
  changes: "warning",
  rejects: "fail",
};

/** Rows drawn at first, and added by each "Show more": a server of 20 000 tools stays quick. */
const ROWS = 50;

interface Open {
  tool: string;
  host: string;
}

export function HostMatrix({ hosts }: { hosts: HostReport }) {
  const { t, i18n } = useTranslation("check");
  const messageOf = (reason: HostReason) => (i18n.language.startsWith("zh") ? reason.message_zh : reason.message);
  const [open, setOpen] = useState<Open | null>(null);
  const [limit, setLimit] = useState(ROWS);
  const rows = hosts.tools.slice(0, limit);
  const nameOf = (id: string) => hosts.hosts.find((h) => h.id === id)?.name ?? id;
  const row = open && hosts.tools.find((r) => r.tool === open.tool);
  const cell = open && row?.hosts.find((c) => c.host === open.host);
  return (
    <div className="host-matrix" data-testid="host-matrix">
      <h4 className="check-subtitle">{t("audit.hosts.title")}</h4>
      <p className="muted">{t("audit.hosts.intro")}</p>
      {hosts.server.map((s) => (
        <p key={s.host} className="warning-box" data-testid="host-server-note" data-host={s.host}>
          <strong>{nameOf(s.host)}</strong>: {messageOf(s.reason)} ({s.reason.detail})
        </p>
      ))}
      <div className="host-matrix-scroll">
        <table className="host-matrix-table">
          <thead>
            <tr>
              <th scope="col">{t("audit.hosts.tool")}</th>
              {hosts.hosts.map((h) => (
                <th key={h.id} scope="col" title={h.source}>
                  {h.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.tool} data-testid="host-row" data-tool={r.tool}>
                <th scope="row" className="mono">
                  <ServerText text={r.tool} />
                </th>
                {r.hosts.map((c) => {
                  const selected = open?.tool === r.tool && open.host === c.host;
                  return (
                    <td key={c.host}>
                      <button
                        type="button"
                        className={`host-cell check-verdict verdict-${VERDICT_CLASS[c.verdict]}${selected ? " selected" : ""}`}
                        data-testid="host-cell"
                        data-host={c.host}
                        data-verdict={c.verdict}
                        aria-pressed={selected}
                        disabled={c.verdict === "accepts"}
                        onClick={() => setOpen(selected ? null : { tool: r.tool, host: c.host })}
                      >
                        {t(`audit.hosts.verdict.${c.verdict}`)}
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length < hosts.tools.length && (
        <button type="button" className="link-button" data-testid="host-matrix-more" onClick={() => setLimit(limit + ROWS)}>
          {t("audit.hosts.more", { shown: rows.length, count: hosts.tools.length })}
        </button>
      )}
      {open && cell && (
        <div className="host-detail" data-testid="host-detail">
          <div className="host-detail-title">
            <span className="mono">
              <ServerText text={open.tool} />
            </span>{" "}
            — {nameOf(open.host)}: {t(`audit.hosts.verdict.${cell.verdict}`)}
          </div>
          <ul>
            {cell.reasons.map((r, i) => (
              <li key={i} data-testid="host-reason">
                <div>{messageOf(r)}</div>
                <div className="mono">
                  <ServerText text={r.detail} />
                </div>
                <div className="muted">
                  {t(`audit.hosts.basis.${r.basis}`)}: {r.source}
                </div>
              </li>
            ))}
          </ul>
          {cell.sent != null && (
            <>
              <div className="block-label">{t("audit.hosts.sent")}</div>
              <pre className="code-block" data-testid="host-sent">
                <ServerText text={JSON.stringify(cell.sent, null, 2)} />
              </pre>
            </>
          )}
        </div>
      )}
    </div>
  );
}
