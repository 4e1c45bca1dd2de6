// The Load view of a server (docs/load.md): the form of a run, Prepare (the first session opens
// and the summary of what will be sent waits for the user's confirmation), the run's figures
// live once a second with Stop, and the kept runs — the shown one in full, compared with
// another, its requests opened in Traffic and on the Timeline.
import { CircleStop, Download, Gauge } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import type { LoadExport } from "../bindings/LoadExport";
import type { LoadRunInfo } from "../bindings/LoadRunInfo";
import type { RampAxis } from "../bindings/RampAxis";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { KeptRunPicker } from "../common/KeptRunPicker";
import { useLists } from "../common/useLists";
import { formatNumber } from "../format";
import { problemText } from "../i18n/problem";
import type { ListKind } from "../ipc";
import type { ServerState } from "../state/connections";
import { changeLoad, useServerLoad, type LoadLive } from "../state/load";
import { useServerLists } from "../state/lists";
import { ensureSaved } from "../state/saved";
import { compareWith, deleteRun, exportRun, loadRuns, prepareLoad, showRun, stopLoad } from "./actions";
import { ConfirmLoadDialog } from "./ConfirmLoadDialog";
import { LoadCharts } from "./LoadCharts";
import { LoadComparison } from "./LoadComparison";
import { LoadFormView } from "./LoadFormView";
import { LoadReportView, useLoadWords } from "./LoadReportView";
import "../styles/load.css";

const TOOLS: readonly ListKind[] = ["tools"];
const EXPORTS: readonly LoadExport[] = ["json", "junit"];

export function LoadTab({ server }: { server: ServerState }) {
  const { t } = useTranslation(["load", "common"]);
  const load = useServerLoad(server.id);
  const tools = useServerLists(server.id).tools;
  useLists(server, TOOLS);
  useEffect(() => {
    void loadRuns(server.id);
    ensureSaved(server.id);
  }, [server.id]);
  const busy = load.phase !== "idle";
  return (
    <div className="load-tab scroll-area" data-testid="load-tab" data-phase={load.phase}>
      <header className="check-header">
        <h2>{t("title")}</h2>
      </header>
      <p className="muted small">{t("intro")}</p>
      <LoadFormView serverId={server.id} form={load.form} tools={tools} disabled={busy} onChange={(form) => changeLoad(server.id, (s) => ({ ...s, form }))} />
      <div className="check-run-row">
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          title={t("prepareHint")}
          data-testid="load-prepare"
          onClick={() => void prepareLoad(server.id)}
        >
          <Gauge size={14} aria-hidden /> {load.phase === "preparing" ? t("preparing") : load.phase === "running" ? t("running") : t("prepare")}
        </button>
        {load.phase === "running" && (
          <button type="button" className="button" data-testid="load-stop" onClick={() => void stopLoad(server.id)}>
            <CircleStop size={14} aria-hidden /> {t("stop")}
          </button>
        )}
        {load.live && <LiveLine live={load.live} axis={load.form.rampAxis} />}
      </div>
      {load.error && <ErrorBox message={load.error} testId="load-error" />}
      {load.shown?.not_kept && <ErrorBox message={t("notKept", { why: problemText(load.shown.not_kept) })} testId="load-not-kept" />}
      {load.summary && load.phase === "confirming" && <ConfirmLoadDialog serverId={server.id} summary={load.summary} />}
      {load.live && <LoadCharts points={load.live.points} />}
      {!load.live && load.shown && (
        <>
          <RunPicker serverId={server.id} runs={load.runs} shown={load.shown.id} baseline={load.baseline} />
          {load.comparison && <LoadComparison comparison={load.comparison} />}
          <LoadReportView run={load.shown} />
        </>
      )}
      {!load.live && !load.shown && load.loaded && load.runs.length === 0 && (
        <EmptyState title={t("empty.title")} testId="load-empty">
          <p>{t("empty.body")}</p>
        </EmptyState>
      )}
    </div>
  );
}

function LiveLine({ live, axis }: { live: LoadLive; axis: RampAxis }) {
  const { t, level } = useLoadWords();
  const p = live.latest;
  if (!p) return <span className="muted small">{t("starting")}</span>;
  return (
    <span className="check-live" role="status" data-testid="load-live" data-completed={p.completed}>
      <span>{t("live.elapsed", { seconds: (p.elapsed_ms / 1000).toFixed(0) })}</span>
      <span>{t("live.done", { completed: formatNumber(p.completed), failed: formatNumber(p.failed) })}</span>
      {p.point && <span>{t("live.second", { rate: formatNumber(p.point.completed), p99: p.point.p99_ms?.toFixed(1) ?? "–" })}</span>}
      {p.step && <span data-testid="load-live-step">{t("live.step", { step: p.step[0], level: level(axis, p.step[1]) })}</span>}
    </span>
  );
}

/** Which kept run is shown, and which it is compared with. */
function RunPicker({ serverId, runs, shown, baseline }: { serverId: string; runs: LoadRunInfo[]; shown: string; baseline: string | null }) {
  const { t, i18n } = useTranslation(["load", "common"]);
  const line = (run: LoadRunInfo) =>
    t("runLine", {
      time: new Date(run.started).toLocaleString(i18n.language),
      workload: run.workload.join(" + "),
      throughput: run.throughput.toFixed(1),
    });
  return (
    <KeptRunPicker
      prefix="load"
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
          <button key={format} type="button" className="button button-small" data-testid={`load-export-${format}`} onClick={() => void exportRun(serverId, shown, format)}>
            {t(`export.${format}`)}
          </button>
        ))}
      </div>
    </KeptRunPicker>
  );
}
