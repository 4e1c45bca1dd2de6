// The Check view of a server: the options of a run, Run, the verdicts arriving as rules are
// judged, and the last run kept — its counts, what changed since the run before it, the
// results grouped by area, the audit of what a model receives, and its export as Markdown,
// JUnit or SARIF.
import { CircleStop, Download, Play } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import type { CheckExport } from "../bindings/CheckExport";
import type { CheckRun } from "../bindings/CheckRun";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { useLists } from "../common/useLists";
import type { ListKind } from "../ipc";
import { changeCheck, useServerCheck, type CheckLive } from "../state/check";
import type { ServerState } from "../state/connections";
import { useServerLists } from "../state/lists";
import { cancelCheck, exportCheck, loadLastCheck, runCheck } from "./actions";
import { CheckOptionsForm } from "./CheckOptionsForm";
import { AuditFindings } from "./AuditFindings";
import { CheckResults, VERDICTS } from "./CheckResults";
import "../styles/check.css";

const TOOLS: readonly ListKind[] = ["tools"];
const EXPORTS: readonly CheckExport[] = ["markdown", "junit", "sarif"];

export function CheckTab({ server }: { server: ServerState }) {
  const { t } = useTranslation(["check", "common"]);
  const check = useServerCheck(server.id);
  const tools = useServerLists(server.id).tools;
  useLists(server, TOOLS);
  useEffect(() => {
    void loadLastCheck(server.id);
  }, [server.id]);
  const live = check.live;
  const last = check.last;
  const results = live ? live.judged : (last?.report.results ?? []);
  return (
    <div className="check-tab scroll-area" data-testid="check-tab">
      <header className="check-header">
        <h2>{t("title")}</h2>
        <div className="check-exports" role="group" aria-label={t("export.label")}>
          <Download size={14} aria-hidden />
          {EXPORTS.map((format) => (
            <button
              key={format}
              type="button"
              className="button button-small"
              disabled={!last || live !== null}
              data-testid={`check-export-${format}`}
              onClick={() => void exportCheck(server.id, format)}
            >
              {t(`export.${format}`)}
            </button>
          ))}
        </div>
      </header>
      <p className="muted small">{t("intro")}</p>
      <CheckOptionsForm
        options={check.options}
        tools={tools}
        disabled={live !== null}
        onChange={(options) => changeCheck(server.id, (s) => ({ ...s, options }))}
      />
      <div className="check-run-row">
        <button
          type="button"
          className="button button-primary"
          disabled={live !== null}
          data-testid="check-run"
          onClick={() => void runCheck(server.id)}
        >
          <Play size={14} aria-hidden /> {live ? t("running") : t("run")}
        </button>
        {live && (
          <button type="button" className="button" data-testid="check-cancel" onClick={() => void cancelCheck(server.id)}>
            <CircleStop size={14} aria-hidden /> {t("common:cancel")}
          </button>
        )}
        {live && <LiveLine live={live} />}
      </div>
      {check.error && <ErrorBox message={t("failed", { error: check.error })} testId="check-error" />}
      {!live && last && <RunSummary run={last} />}
      {!live && !last && check.loaded && !check.error && (
        <EmptyState title={t("empty.title")} testId="check-empty">
          <p>{t("empty.body")}</p>
        </EmptyState>
      )}
      {results.length > 0 && (
        <>
          <label className="check-option check-show-all">
            <input
              type="checkbox"
              checked={check.showAll}
              data-testid="check-show-all"
              onChange={(event) => changeCheck(server.id, (s) => ({ ...s, showAll: event.target.checked }))}
            />
            {t("showAll")}
          </label>
          {!live && last?.report.audit && <AuditFindings audit={last.report.audit} serverId={server.id} showAll={check.showAll} />}
          <CheckResults
            results={results}
            report={live ? null : (last?.report ?? null)}
            changes={live ? null : (last?.changes ?? null)}
            showAll={check.showAll}
          />
        </>
      )}
    </div>
  );
}

function LiveLine({ live }: { live: CheckLive }) {
  const { t } = useTranslation("check");
  const era = live.asking[live.asking.length - 1];
  return (
    <div className="check-live" role="status" data-testid="check-live">
      {era && <span>{t("asking", { era: t(`eraTag.${era}`) })}</span>}
      {live.willCall
        .filter((w) => w.tools.length > 0)
        .map((w) => (
          <span key={w.era} data-testid="check-will-call">
            {t("willCall", { era: t(`eraTag.${w.era}`), tools: w.tools.join(", ") })}
          </span>
        ))}
      <span className="count-text">{t("judged", { count: live.judged.length })}</span>
    </div>
  );
}

/** `12:03`, in the UI's language. */
export function shortTime(ms: number, language: string): string {
  return new Date(ms).toLocaleTimeString(language, { hour: "2-digit", minute: "2-digit" });
}

function RunSummary({ run }: { run: CheckRun }) {
  const { t, i18n } = useTranslation("check");
  const { report, changes } = run;
  const counts = report.counts;
  const time = (ms: number) => shortTime(ms, i18n.language);
  const changed = !changes
    ? t("changes.first")
    : changes.new_failures.length === 0 && changes.fixed.length === 0
      ? t("changes.none", { time: time(changes.since_ms) })
      : t("changes.summary", {
          new: t("changes.new", { count: changes.new_failures.length }),
          fixed: t("changes.fixed", { count: changes.fixed.length }),
          time: time(changes.since_ms),
        });
  return (
    <div className="check-summary" data-testid="check-summary">
      <p className="muted small">
        {t("lastRun", {
          time: time(report.started_ms),
          took: `${(report.took_ms / 1000).toFixed(1)} s`,
          target: report.server ?? report.target,
        })}
      </p>
      {report.unreachable !== null && (
        <ErrorBox message={t("unreachable", { why: report.unreachable })} testId="check-unreachable" />
      )}
      <div className="check-counts" data-testid="check-counts">
        {VERDICTS.map((verdict) => (
          <span key={verdict} className={`check-count verdict-${verdict}`} data-testid={`check-count-${verdict}`}>
            <b>{counts[verdict]}</b> {t(`counts.${verdict}`)}
          </span>
        ))}
      </div>
      <p className="check-changes" data-testid="check-changes">
        {changed}
      </p>
      {report.unreachable === null && counts.fail === 0 && counts.warning === 0 && (
        <p className="check-all-passed" data-testid="check-all-passed">
          {t("allPassed")}
        </p>
      )}
    </div>
  );
}
