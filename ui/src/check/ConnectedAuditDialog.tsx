// The audit of every connected server together (docs/audit.md, "Every connected server"): what
// a host that loads them all hands its model. Each server's tools and instructions cost, the
// sum a host pays on every request against a budget the user sets, and every finding, those
// between the servers included (a tool name two servers share, a name that imitates another
// server's, a description that names another server's tool). A finding opens its item.
import { RefreshCw } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ConnectedAudit } from "../bindings/ConnectedAudit";
import type { Finding } from "../bindings/Finding";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { Dialog } from "../dialog/Dialog";
import { checkIpc, errorMessage } from "../ipc";
import { AuditFindings } from "./AuditFindings";
import "../styles/check.css";

type Loaded = { kind: "loading" } | { kind: "loaded"; audit: ConnectedAudit } | { kind: "error"; error: string };

export function ConnectedAuditDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation(["check", "common"]);
  // Each round reads the lists anew ("Audit again" starts the next).
  const [round, setRound] = useState(0);
  return (
    <Dialog
      title={t("together.title")}
      onClose={onClose}
      testId="audit-connected"
      className="modal-wide"
      dismiss={{ label: t("common:close") }}
      footer={
        <button type="button" className="button" data-testid="audit-connected-again" onClick={() => setRound((r) => r + 1)}>
          <RefreshCw size={14} aria-hidden /> {t("together.again")}
        </button>
      }
    >
      <p className="muted small">{t("together.intro")}</p>
      <AuditRound key={round} onOpen={onClose} />
    </Dialog>
  );
}

function AuditRound({ onOpen }: { onOpen: () => void }) {
  const { t } = useTranslation("check");
  const [state, setState] = useState<Loaded>({ kind: "loading" });
  useEffect(() => {
    let live = true;
    checkIpc
      .auditConnected()
      .then((audit) => live && setState({ kind: "loaded", audit }))
      .catch((error: unknown) => live && setState({ kind: "error", error: errorMessage(error) }));
    return () => {
      live = false;
    };
  }, []);
  if (state.kind === "loading") {
    return (
      <p className="muted" role="status" data-testid="audit-connected-loading">
        {t("together.loading")}
      </p>
    );
  }
  if (state.kind === "error") return <ErrorBox message={t("together.failed", { error: state.error })} />;
  return <Together audit={state.audit} onOpen={onOpen} />;
}

function Together({ audit, onOpen }: { audit: ConnectedAudit; onOpen: () => void }) {
  const { t, i18n } = useTranslation("check");
  // As typed: an empty or partial field is not a budget of 0.
  const [budgetText, setBudgetText] = useState(String(audit.report.budget));
  const typed = Number(budgetText);
  const budget = budgetText.trim() !== "" && Number.isFinite(typed) && typed >= 0 ? typed : audit.report.budget;
  const [showAll, setShowAll] = useState(false);
  const { report, servers } = audit;
  if (servers.length === 0) {
    return (
      <EmptyState title={t("together.none.title")} testId="audit-connected-empty">
        <p>{t("together.none.body")}</p>
      </EmptyState>
    );
  }
  const number = (n: number) => n.toLocaleString(i18n.language);
  const over = report.total.o200k > budget;
  const idOf = (finding: Finding) => servers.find((s) => s.name === finding.server)?.server_id;
  return (
    <div className="check-audit-together">
      <p data-testid="audit-connected-total">
        {t("together.total", {
          count: servers.length,
          o200k: number(report.total.o200k),
          cl100k: number(report.total.cl100k),
          anthropic: number(report.total.anthropic_estimate),
        })}
      </p>
      <label className="check-option">
        {t("together.budget")}
        <input
          type="number"
          min={0}
          step={1000}
          className="together-budget"
          value={budgetText}
          data-testid="audit-connected-budget"
          onChange={(e) => setBudgetText(e.target.value)}
        />
      </label>
      {over && (
        <p className="warning-box" role="status" data-testid="audit-connected-over">
          {t("together.over", { o200k: number(report.total.o200k), budget: number(budget) })}
        </p>
      )}
      <table className="host-matrix-table" data-testid="audit-connected-servers">
        <thead>
          <tr>
            <th scope="col">{t("together.server")}</th>
            <th scope="col">{t("together.tools")}</th>
            <th scope="col">{t("audit.tokens.o200k")}</th>
            <th scope="col">{t("audit.tokens.cl100k")}</th>
            <th scope="col" title={t("audit.tokens.estimateHint")}>
              {t("audit.tokens.anthropic")}
            </th>
            <th scope="col">{t("together.findings")}</th>
          </tr>
        </thead>
        <tbody>
          {report.servers.map((s) => (
            <tr key={s.server} data-testid="audit-connected-row" data-server={s.server}>
              <th scope="row">{s.server}</th>
              <td className="num">{number(s.tools)}</td>
              <td className="num">{number(s.tokens.o200k)}</td>
              <td className="num">{number(s.tokens.cl100k)}</td>
              <td className="num">~{number(s.tokens.anthropic_estimate)}</td>
              <td className="num" data-testid="audit-connected-row-findings">
                {t("together.counts", { error: s.counts.error, warning: s.counts.warning, info: s.counts.info })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {audit.unread.map((line) => (
        <p key={line} className="muted small" data-testid="audit-connected-unread">
          {t("together.unread", { line })}
        </p>
      ))}
      <label className="check-option check-show-all">
        <input type="checkbox" checked={showAll} data-testid="audit-connected-show-all" onChange={(e) => setShowAll(e.target.checked)} />
        {t("together.showInfo")}
      </label>
      <AuditFindings audit={report.audit} serverId={idOf} showAll={showAll} withServer onOpen={onOpen} />
    </div>
  );
}
