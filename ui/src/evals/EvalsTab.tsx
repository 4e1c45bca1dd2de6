// The Evals view of a server (docs/evals.md): its suite (YAML, kept as typed, checked by the
// engine as it is saved; a starter made from the tools), the run form (models, repetitions,
// variants, which tool calls may run), a run under way with Stop, and the kept runs: the one
// shown in full, compared with an earlier one, opened case by case to each repetition's trace.
import { CircleStop, Download, FlaskConical, Save, Sparkles } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import type { EvalExport } from "../bindings/EvalExport";
import type { EvalRunInfo } from "../bindings/EvalRunInfo";
import { ReadyGate } from "../common/ListGate";
import { ErrorBox } from "../common/ErrorBox";
import { KeptRunPicker } from "../common/KeptRunPicker";
import { problemText } from "../i18n/problem";
import type { ServerState } from "../state/connections";
import { useServerEvals } from "../state/evals";
import "../styles/load.css";
import "../styles/evals.css";
import { compareWith, deleteRun, editSuite, ensureEvals, exportRun, makeStarter, runEvals, saveSuite, showRun, stopEvals } from "./actions";
import { describeSuiteProblem } from "./describe";
import { EvalComparison, EvalReportView } from "./EvalReportView";
import { EvalRunForm } from "./EvalRunForm";

const EXPORTS: readonly EvalExport[] = ["json", "junit"];

export function EvalsTab({ server }: { server: ServerState }) {
  const { t } = useTranslation(["evals", "common"]);
  return (
    <ReadyGate server={server} notConnected={t("notConnected")}>
      <EvalsView server={server} />
    </ReadyGate>
  );
}

function EvalsView({ server }: { server: ServerState }) {
  const { t } = useTranslation(["evals", "common"]);
  const state = useServerEvals(server.id);
  useEffect(() => void ensureEvals(server.id), [server.id]);
  return (
    <div className="load-tab evals-tab scroll-area" data-testid="evals-tab" data-running={state.running}>
      <header className="check-header">
        <h2>{t("title")}</h2>
      </header>
      <p className="muted small">{t("intro")}</p>
      <SuiteEditor serverId={server.id} />
      <EvalRunForm server={server} />
      <div className="check-run-row">
        <button
          type="button"
          className="button button-primary"
          disabled={state.running || state.text === null}
          data-testid="evals-run"
          onClick={() => void runEvals(server.id)}
        >
          <FlaskConical size={14} aria-hidden /> {state.running ? t("form.running") : t("form.run")}
        </button>
        {state.running && (
          <button type="button" className="button" data-testid="evals-stop" onClick={() => void stopEvals(server.id)}>
            <CircleStop size={14} aria-hidden /> {t("form.stop")}
          </button>
        )}
        {state.live && (
          <span className="check-live" role="status" data-testid="evals-live" data-done={state.live.done} data-total={state.live.total}>
            <progress max={Math.max(state.live.total, 1)} value={state.live.done} />
            <span>{t("live.progress", { done: state.live.done, total: state.live.total })}</span>
            {state.live.last && (
              <span className="muted">
                {t("live.last", {
                  case: state.live.last.case,
                  model: state.live.last.model,
                  variant: state.live.last.variant,
                  repetition: state.live.last.repetition,
                  outcome: t(`outcome.${state.live.last.outcome}`),
                })}
              </span>
            )}
          </span>
        )}
      </div>
      {state.error && <ErrorBox message={state.error} testId="evals-error" />}
      {state.shown?.not_kept && <ErrorBox message={t("report.notKept", { why: problemText(state.shown.not_kept) })} testId="evals-not-kept" />}
      {!state.running && state.shown && (
        <>
          <RunPicker serverId={server.id} runs={state.runs} shown={state.shown.id} baseline={state.baseline} />
          {state.comparison && <EvalComparison rows={state.comparison} />}
          <EvalReportView serverId={server.id} run={state.shown} open={state.open} />
        </>
      )}
      {!state.running && !state.shown && state.loaded && state.runs.length === 0 && (
        <p className="muted small" data-testid="evals-no-run">
          {t("report.empty")}
        </p>
      )}
    </div>
  );
}

function SuiteEditor({ serverId }: { serverId: string }) {
  const { t } = useTranslation(["evals", "common"]);
  const state = useServerEvals(serverId);
  const outline = state.check?.outline ?? null;
  const problem = state.check?.problem ?? null;
  const starter = () => {
    if ((state.text ?? "").trim() !== "" && !window.confirm(t("suite.starterConfirm"))) return;
    void makeStarter(serverId);
  };
  return (
    <fieldset className="load-form evals-suite">
      <legend className="load-row-title">{t("suite.title")}</legend>
      <div className="load-row">
        <button type="button" className="button button-small" title={t("suite.starterHint")} data-testid="evals-starter" onClick={starter}>
          <Sparkles size={14} aria-hidden /> {t("suite.starter")}
        </button>
        <button type="button" className="button button-small" data-testid="evals-save" onClick={() => void saveSuite(serverId)}>
          <Save size={14} aria-hidden /> {t("suite.save")}
        </button>
        {state.saving && <span className="muted small">{t("suite.saving")}</span>}
        {outline && (
          <span className="evals-ok small" data-testid="evals-suite-ok" data-cases={outline.cases.length}>
            {t("suite.ok", { count: outline.cases.length })}
            {outline.variants.length > 0 && ` · ${t("suite.variants", { names: outline.variants.join(", ") })}`}
          </span>
        )}
      </div>
      {problem && (
        <p className="load-warning small" data-testid="evals-suite-problem" data-kind={problem.kind}>
          {describeSuiteProblem(problem)}
        </p>
      )}
      <label className="load-field evals-editor">
        {t("suite.label")}
        <textarea
          value={state.text ?? ""}
          spellCheck={false}
          rows={10}
          placeholder={t("suite.empty")}
          data-testid="evals-suite"
          onChange={(event) => editSuite(serverId, event.target.value)}
          onBlur={() => void saveSuite(serverId)}
        />
      </label>
      <p className="muted small">{t("suite.hint")}</p>
    </fieldset>
  );
}

/** Which kept run is shown, and which it is compared with. */
function RunPicker({ serverId, runs, shown, baseline }: { serverId: string; runs: EvalRunInfo[]; shown: string; baseline: string | null }) {
  const { t, i18n } = useTranslation(["evals", "common"]);
  const line = (run: EvalRunInfo) =>
    t("runs.line", {
      time: new Date(run.started_ms).toLocaleString(i18n.language),
      passed: run.passed,
      trials: run.trials,
      models: run.models.join(", "),
    });
  return (
    <KeptRunPicker
      prefix="evals"
      runs={runs}
      shown={shown}
      baseline={baseline}
      line={line}
      onShow={(id) => void showRun(serverId, id)}
      onCompare={(id) => void compareWith(serverId, id)}
      onDelete={() => void deleteRun(serverId, shown)}
    >
      <div className="check-exports" role="group" aria-label={t("export.label")}>
        <Download size={14} aria-hidden />
        {EXPORTS.map((format) => (
          <button key={format} type="button" className="button button-small" data-testid={`evals-export-${format}`} onClick={() => void exportRun(serverId, shown, format)}>
            {t(`export.${format}`)}
          </button>
        ))}
      </div>
    </KeptRunPicker>
  );
}
