// What a tool's result holds that is aimed at the model, which reads the result next: the
// engine's audit of results (`audit::results`, docs/audit.md), shown above the result in the
// Tools tab and under a tool call in the playground. The result itself is shown unchanged.
import { TriangleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { Finding } from "../bindings/Finding";
import { VERDICT_CLASS } from "./AuditFindings";

export function ResultFindings({ findings }: { findings: readonly Finding[] }) {
  const { t } = useTranslation("check");
  if (findings.length === 0) return null;
  return (
    <div className="result-findings" role="alert" data-testid="result-findings">
      <p className="result-findings-title">
        <TriangleAlert size={14} aria-hidden /> {t("audit.result.title", { count: findings.length })}
      </p>
      <ul>
        {findings.map((f, i) => (
          <li key={i} data-testid={`result-finding-${f.rule}`} data-severity={f.severity}>
            <span className={`check-verdict verdict-${VERDICT_CLASS[f.severity]}`}>{t(`audit.severity.${f.severity}`)}</span>{" "}
            {t(`audit.rules.${f.rule}.title`)} <code className="check-rule-id">{f.field}</code>{" "}
            {f.excerpt && (
              <q className="audit-excerpt" data-testid="result-finding-excerpt">
                {f.excerpt}
              </q>
            )}
          </li>
        ))}
      </ul>
      <p className="muted small">{t("audit.result.why")}</p>
    </div>
  );
}
