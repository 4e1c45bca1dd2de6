// The Audit section of a check: what a model receives from the server, judged offline
// (docs/audit.md). Each finding with its severity, rule, where it is (the tool, prompt or
// resource and the field, its text made visible) and, opened, why it matters and the fix; a
// tool's or prompt's finding opens that item in its tab.
import { ChevronDown, ChevronRight, ExternalLink } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { AuditReport } from "../bindings/AuditReport";
import type { Finding } from "../bindings/Finding";
import type { FindingSeverity } from "../bindings/FindingSeverity";
import { selectPrompt, selectTool, setTab } from "../actions/view";
import { select } from "../state/connections";
import { ServerText } from "../common/ServerText";
import { HostMatrix } from "./HostMatrix";
import { TokenTable } from "./TokenTable";

const SEVERITIES: readonly FindingSeverity[] = ["error", "warning", "info"];

/** The check's verdict class a severity is drawn with. */
export const VERDICT_CLASS: Record<FindingSeverity, string> = { error: "fail", warning: "warning", info: "skipped" };

interface Props {
  audit: AuditReport;
  /** The catalog id of the server a finding is about (one server's check: always the same). */
  serverId: string | ((finding: Finding) => string | undefined);
  showAll: boolean;
  /** Several servers' findings: each names its server. */
  withServer?: boolean;
  /** Called when a finding opens its item (the audit of all servers closes then). */
  onOpen?: () => void;
}

export function AuditFindings({ audit, serverId, showAll, withServer = false, onOpen }: Props) {
  const { t } = useTranslation("check");
  const shown = showAll ? audit.findings : audit.findings.filter((f) => f.severity !== "info");
  return (
    <section className="check-group" data-testid="check-audit">
      <h3 className="check-group-title">
        {t("audit.title")}
        <span className="check-group-counts">
          {SEVERITIES.map(
            (severity) =>
              audit.counts[severity] > 0 && (
                <span key={severity} className={`check-count verdict-${VERDICT_CLASS[severity]}`} data-testid={`audit-count-${severity}`}>
                  {audit.counts[severity]} {t(`audit.counts.${severity}`)}
                </span>
              ),
          )}
        </span>
      </h3>
      {audit.findings.length === 0 && <p className="muted small">{t("audit.none")}</p>}
      {shown.length > 0 && (
        <ul className="check-result-list">
          {shown.map((finding, i) => (
            <FindingRow
              key={i}
              finding={finding}
              serverId={typeof serverId === "string" ? serverId : serverId(finding)}
              withServer={withServer}
              onOpen={onOpen}
            />
          ))}
        </ul>
      )}
      {audit.tokens && audit.tokens.items.length > 0 && <TokenTable tokens={audit.tokens} showAll={showAll} />}
      {audit.hosts && audit.hosts.tools.length > 0 && <HostMatrix hosts={audit.hosts} />}
    </section>
  );
}

interface RowProps {
  finding: Finding;
  serverId: string | undefined;
  withServer: boolean;
  onOpen?: () => void;
}

function FindingRow({ finding, serverId, withServer, onOpen }: RowProps) {
  const { t } = useTranslation("check");
  const [open, setOpen] = useState(false);
  const Chevron = open ? ChevronDown : ChevronRight;
  const verdict = VERDICT_CLASS[finding.severity];
  const opens = serverId !== undefined && (finding.subject === "tool" || finding.subject === "prompt");
  const openItem = () => {
    if (serverId === undefined) return;
    onOpen?.();
    if (withServer) select(serverId);
    if (finding.subject === "tool") {
      setTab(serverId, "tools");
      selectTool(serverId, finding.name);
    } else if (finding.subject === "prompt") {
      setTab(serverId, "prompts");
      selectPrompt(serverId, finding.name);
    }
  };
  return (
    <li className={`check-result verdict-${verdict}`} data-testid={`audit-finding-${finding.rule}`} data-severity={finding.severity}>
      <button type="button" className="check-result-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Chevron size={14} aria-hidden />
        <span className={`check-verdict verdict-${verdict}`}>{t(`audit.severity.${finding.severity}`)}</span>
        <span className="check-rule-title">{t(`audit.rules.${finding.rule}.title`)}</span>
        {withServer && (
          <span className="badge" data-testid="audit-finding-server">
            {finding.server}
          </span>
        )}
        <span className="badge">
          {t(`audit.subject.${finding.subject}`)}
          {finding.subject !== "instructions" && (
            <>
              {" "}
              <ServerText text={finding.name} />
            </>
          )}
        </span>
      </button>
      <div className="check-result-message">
        <code className="check-rule-id">{finding.rule}</code> <code className="check-rule-id">{finding.field}</code>
        {finding.excerpt && (
          <>
            {" "}
            <q className="audit-excerpt" data-testid="audit-excerpt">
              {finding.excerpt}
            </q>
          </>
        )}
      </div>
      {open && (
        <div className="check-result-detail" data-testid="audit-detail">
          <p>{finding.message}</p>
          <p>
            <b>{t("audit.why")}:</b> {t(`audit.rules.${finding.rule}.why`)}
          </p>
          <p className="check-fix">
            <b>{t("result.fix")}:</b> {t(`audit.rules.${finding.rule}.fix`)}
          </p>
          {opens && (
            <p>
              <button type="button" className="button button-small" data-testid="audit-open" onClick={openItem}>
                <ExternalLink size={12} aria-hidden /> {finding.subject === "tool" ? t("audit.open.tool") : t("audit.open.prompt")}
              </button>
            </p>
          )}
        </div>
      )}
    </li>
  );
}
