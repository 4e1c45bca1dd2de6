import { useTranslation } from "react-i18next";
import type { RecordingInfo } from "../bindings/RecordingInfo";
import { EmptyState } from "../common/EmptyState";
import { formatTime } from "../format";

/** The sign-in steps and the consent decisions the record holds (redacted when written). */
export function RecordedSignIn({ info }: { info: RecordingInfo }) {
  const { t } = useTranslation("recordings");
  return (
    <div className="scroll-area recorded-list" data-testid="recorded-oauth">
      <h2 className="section-title">{t("signIn.steps")}</h2>
      {info.auth_steps.length === 0 ? (
        <EmptyState testId="recorded-no-steps">{t("signIn.noSteps")}</EmptyState>
      ) : (
        <ol className="recorded-items">
          {info.auth_steps.map((step, i) => (
            <li key={i} className={`recorded-item step-${step.outcome}`} data-testid="recorded-step">
              <strong>{step.title}</strong> <span className="muted">{formatTime(step.wall_us)}</span>
              <div>{step.detail}</div>
              {step.http && <div className="mono muted">{step.http}</div>}
            </li>
          ))}
        </ol>
      )}
      <h2 className="section-title">{t("signIn.decisions")}</h2>
      {info.decisions.length === 0 ? (
        <EmptyState testId="recorded-no-decisions">{t("signIn.noDecisions")}</EmptyState>
      ) : (
        <ul className="recorded-items">
          {info.decisions.map((d, i) => (
            <li key={i} className="recorded-item" data-testid="recorded-decision">
              <span className="mono">{d.method}</span> → <strong>{d.decision}</strong>{" "}
              <span className="muted">{formatTime(d.wall_us)}</span>
              {d.detail && <div className="mono muted">{d.detail}</div>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
