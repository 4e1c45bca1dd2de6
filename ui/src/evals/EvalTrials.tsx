// A case of an eval run opened: its repetitions for one model and variant (each passed, failed,
// errored or skipped), and the trace of the one picked — each expectation held or not and why,
// each tool call the model asked for with its arguments, whether it ran and why, its result and
// the server's time, the final answer, the judge's word, and the whole conversation.
import { useTranslation } from "react-i18next";
import type { EvalRun } from "../bindings/EvalRun";
import type { EvalTrial } from "../bindings/EvalTrial";
import type { ModelToolRun } from "../bindings/ModelToolRun";
import { showFrame, showHistoryEntry } from "../actions/view";
import { JsonBlock } from "../common/JsonBlock";
import { problemText } from "../i18n/problem";
import type { OpenCase } from "../state/evals";
import { openCase } from "./actions";
import { describeExpectation, describeMiss } from "./describe";

const MARK: Record<EvalTrial["outcome"], string> = { passed: "✓", failed: "✗", errored: "!", skipped: "–" };
const VERDICT_MARK: Record<EvalTrial["checks"][number]["verdict"], string> = { pass: "✓", fail: "✗", unmeasured: "?" };

export function EvalTrials({ serverId, run, open }: { serverId: string; run: EvalRun; open: OpenCase }) {
  const { t } = useTranslation("evals");
  const trials = run.report.trials.filter((x) => x.case === open.case && x.model === open.model && x.variant === open.variant);
  const picked =
    trials.find((x) => x.repetition === open.repetition) ??
    trials.find((x) => x.outcome === "failed" || x.outcome === "errored") ??
    trials[0] ??
    null;
  return (
    <section className="evals-trials" data-testid="evals-trials" data-case={open.case}>
      <header className="evals-trials-head">
        <h3>{t("trials.title", { case: open.case, model: open.model, variant: open.variant })}</h3>
        <button type="button" className="button button-small" data-testid="evals-trials-close" onClick={() => openCase(serverId, null)}>
          {t("trials.close")}
        </button>
      </header>
      <div className="evals-reps" role="tablist">
        {trials.map((x) => (
          <button
            key={x.repetition}
            type="button"
            role="tab"
            aria-selected={picked?.repetition === x.repetition}
            className={`button button-small evals-rep evals-rep-${x.outcome}`}
            data-testid="evals-rep"
            data-outcome={x.outcome}
            data-repetition={x.repetition}
            onClick={() => openCase(serverId, { ...open, repetition: x.repetition })}
          >
            {MARK[x.outcome]} {t("trials.repetition", { n: x.repetition })} · {t(`outcome.${x.outcome}`)}
          </button>
        ))}
      </div>
      {picked && <EvalTraceView serverId={serverId} trial={picked} inTraffic={run.in_traffic} />}
    </section>
  );
}

/** Where else a call that ran is shown: its History entry, and its response in Traffic while the
 * record it is in is the server's record (a later connection's seqs are another record's). */
function CallLinks({ serverId, ran, inTraffic }: { serverId: string; ran: ModelToolRun; inTraffic: boolean }) {
  const { t } = useTranslation("evals");
  const historyId = ran.history_id;
  const seq = ran.timing.response_seq;
  return (
    <span className="evals-call-links">
      {historyId !== null && (
        <button type="button" className="link-button small" data-testid="evals-call-history" onClick={() => showHistoryEntry(serverId, historyId)}>
          {t("trace.inHistory")}
        </button>
      )}
      {seq !== null && (
        <button
          type="button"
          className="link-button small"
          data-testid="evals-call-traffic"
          data-seq={seq}
          disabled={!inTraffic}
          title={inTraffic ? undefined : t("trace.otherRecord")}
          onClick={() => showFrame(serverId, seq)}
        >
          {t("trace.inTraffic")}
        </button>
      )}
    </span>
  );
}

function EvalTraceView({ serverId, trial, inTraffic }: { serverId: string; trial: EvalTrial; inTraffic: boolean }) {
  const { t } = useTranslation("evals");
  const trace = trial.trace;
  return (
    <div className="evals-trace" data-testid="evals-trace" data-outcome={trial.outcome} data-repetition={trial.repetition}>
      {trace.overridden.length > 0 && (
        <p className="evals-overridden small" data-testid="evals-overridden">
          {t("trace.overridden", { tools: trace.overridden.join(", ") })}
        </p>
      )}
      {trial.error && (
        <p className="load-warning" data-testid="evals-trial-error">
          {t("trace.error")}: {problemText(trial.error)}
        </p>
      )}
      {trial.checks.length > 0 && (
        <>
          <h4>{t("trace.checks")}</h4>
          <ul className="evals-checks">
            {trial.checks.map((c, i) => (
              <li key={i} className={`evals-check evals-check-${c.verdict}`} data-testid="evals-check" data-verdict={c.verdict} data-kind={c.expectation.kind}>
                <span aria-hidden>{VERDICT_MARK[c.verdict]}</span> {describeExpectation(c.expectation)}
                {c.miss && c.verdict !== "pass" && <span className="muted">: {describeMiss(c.miss)}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      <h4>{t("trace.calls")}</h4>
      {trace.calls.length === 0 && <p className="muted small">{t("trace.noCalls")}</p>}
      <ol className="evals-calls">
        {trace.calls.map((call, i) => (
          <li key={i} className="evals-call" data-testid="evals-call" data-tool={call.tool ?? call.name} data-basis={call.basis}>
            <p className="evals-call-head">
              <code>{call.tool ?? call.name}</code>{" "}
              <span className={call.ran ? "evals-ran small" : "evals-refused small"}>{t(`trace.basis.${call.basis}`)}</span>
              {call.ran && <span className="muted small"> · {t("trace.took", { ms: (call.ran.timing.duration_us / 1000).toFixed(1) })}</span>}
              {call.ran && <CallLinks serverId={serverId} ran={call.ran} inTraffic={inTraffic} />}
            </p>
            <div className="evals-call-body">
              <span className="muted small">{t("trace.args")}</span>
              <JsonBlock value={call.arguments} />
              <span className="muted small">{t("trace.result")}</span>
              <pre className={call.is_error ? "evals-result evals-result-error" : "evals-result"}>{call.result}</pre>
            </div>
          </li>
        ))}
      </ol>
      <h4>{t("trace.answer")}</h4>
      <pre className="evals-answer" data-testid="evals-answer">
        {trace.answer}
      </pre>
      {trial.judge && (
        <p className="small" data-testid="evals-judge" data-verdict={trial.judge.verdict}>
          {t("trace.judge", { model: trial.judge.model, verdict: t(`trace.judgeVerdict.${trial.judge.verdict}`), reason: trial.judge.reason })}
        </p>
      )}
      <details className="evals-conversation">
        <summary>{t("trace.conversation")}</summary>
        <ol>
          {trace.messages.map((m, i) => (
            <li key={i}>
              <strong>{t(`trace.role.${m.role}`)}</strong>
              {m.content.map((b, j) => (
                <div key={j} className="evals-block">
                  {b.type === "text" && <pre>{b.text}</pre>}
                  {b.type === "tool_use" && (
                    <span>
                      {t("trace.toolUse", { name: b.name })} <code>{JSON.stringify(b.input)}</code>
                    </span>
                  )}
                  {b.type === "tool_result" && (
                    <span>
                      {t("trace.toolResult")}: <code>{b.content.map((c) => (c.type === "text" ? c.text : c.type)).join(" ")}</code>
                    </span>
                  )}
                  {b.type === "image" && <span className="muted">{b.mime}</span>}
                </div>
              ))}
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
}
