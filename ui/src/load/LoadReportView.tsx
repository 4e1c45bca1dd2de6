// A finished run: what it measured in a line, where a ramp broke, its requests to open in
// Traffic and on the Timeline (the first session's record, said to be a sample when it is
// one), its charts, each request's latency percentiles and failures by kind, a ramp's steps,
// what the servers and Periscope cost, and the comparison with another kept run.
import { Activity, ChartGantt } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { BreakingPoint } from "../bindings/BreakingPoint";
import type { Crossed } from "../bindings/Crossed";
import type { FailureCount } from "../bindings/FailureCount";
import type { LoadRun } from "../bindings/LoadRun";
import type { OpStats } from "../bindings/OpStats";
import type { RampAxis } from "../bindings/RampAxis";
import { formatBytes, formatNumber } from "../format";
import { openRequests } from "./actions";
import { LoadCharts } from "./LoadCharts";

const ms = (n: number | undefined) => (n === undefined ? "–" : n < 10 ? n.toFixed(2) : n.toFixed(1));
const rate = (n: number) => (n < 10 ? n.toFixed(2) : formatNumber(Math.round(n)));

export function useLoadWords() {
  const { t } = useTranslation("load");
  const level = (axis: RampAxis, n: number) => t(`level.${axis}`, { n: +n.toFixed(2) });
  const crossed = (c: Crossed) =>
    c.threshold === "error_rate"
      ? t("crossed.error_rate", { measured: c.measured_pct.toFixed(1), limit: c.limit_pct })
      : t("crossed.p99", { measured: c.measured_ms.toFixed(1), limit: c.limit_ms });
  const failure = (f: FailureCount) => (f.kind === "rpc" ? t("failure.rpc", { code: f.code }) : t(`failure.${f.kind}`));
  const label = (op: OpStats) => (op.method === null ? t("allRequests") : op.name === null ? op.method : `${op.method} ${op.name}`);
  return { t, level, crossed, failure, label };
}

export function BreakingLine({ point }: { point: BreakingPoint }) {
  const { t, level, crossed } = useLoadWords();
  return (
    <p className="load-breaking" data-testid="load-breaking-point" data-level={point.level} data-step={point.step}>
      {t("breaking.at", { step: point.step, level: level(point.axis, point.level), crossed: crossed(point.crossed) })}{" "}
      {point.last_good_level === null
        ? t("breaking.firstStep")
        : t("breaking.held", { level: level(point.axis, point.last_good_level) })}
    </p>
  );
}

function OpRow({ op, strong }: { op: OpStats; strong?: boolean }) {
  const { label } = useLoadWords();
  const l = op.latency;
  return (
    <tr className={strong ? "load-total" : undefined} data-testid="load-op" data-label={label(op)}>
      <th scope="row" className="mono">
        {label(op)}
      </th>
      <td data-testid="load-op-completed">{formatNumber(op.completed)}</td>
      <td>{formatNumber(op.failed)}</td>
      <td>{op.error_rate_pct.toFixed(2)}</td>
      <td>{rate(op.throughput)}</td>
      <td>{ms(l?.p50_ms)}</td>
      <td>{ms(l?.p90_ms)}</td>
      <td data-testid="load-op-p99">{ms(l?.p99_ms)}</td>
      <td>{ms(l?.p999_ms)}</td>
      <td>{ms(l?.max_ms)}</td>
    </tr>
  );
}

export function LoadReportView({ run }: { run: LoadRun }) {
  const { t, i18n } = useTranslation("load");
  const { level, crossed, failure, label } = useLoadWords();
  const r = run.report;
  const started = new Date(r.started);
  const ops = [...(r.methods.length > 1 ? r.methods : []), ...r.operations];
  // Each request's failures when the workload mixes several; else the run's.
  const failures = (r.operations.length > 1 ? r.operations : [r.total]).flatMap((op) => op.failures.map((f) => ({ op, f })));
  const ramp = r.plan.ramp;
  return (
    <section className="load-report" data-testid="load-report" data-run={run.id} data-stopped={r.stopped}>
      <p className="load-headline" data-testid="load-headline">
        {t("headline", {
          completed: formatNumber(r.total.completed),
          seconds: (r.elapsed_ms / 1000).toFixed(1),
          throughput: rate(r.total.throughput),
          failed: r.total.error_rate_pct.toFixed(2),
        })}{" "}
        <span className="muted">
          {t(`stopped.${r.stopped}`)} · {started.toLocaleString(i18n.language)}
        </span>
      </p>
      {r.breaking_point && <BreakingLine point={r.breaking_point} />}
      {ramp && !r.breaking_point && r.steps.length > 0 && (
        <p className="load-held" data-testid="load-ramp-held">
          {t("breaking.none", { level: level(ramp.axis, r.steps[r.steps.length - 1]?.level ?? 0) })}
        </p>
      )}
      {(r.sessions.opened < r.sessions.asked || r.sessions.lost > 0) && (
        <p className="load-warning" data-testid="load-sessions">
          {t("sessions", { opened: r.sessions.opened, asked: r.sessions.asked, lost: r.sessions.lost })}
          {r.sessions.failed[0] ? ` ${t("sessionsFailed", { why: r.sessions.failed[0] })}` : ""}
        </p>
      )}
      {r.sample && (
        <div className="load-sample" data-testid="load-sample" data-cut={r.sample.cut}>
          <span className="muted small">
            {r.sample.cut
              ? t("sample.cut", { requests: formatNumber(r.sample.requests), sessions: r.sample.sessions })
              : r.sample.sessions > 1
                ? t("sample.oneSession", { requests: formatNumber(r.sample.requests), sessions: r.sample.sessions })
                : t("sample.all", { requests: formatNumber(r.sample.requests) })}
          </span>
          <button type="button" className="button button-small" data-testid="load-open-traffic" onClick={() => void openRequests(run, "traffic")}>
            <Activity size={14} aria-hidden /> {t("sample.traffic")}
          </button>
          <button type="button" className="button button-small" data-testid="load-open-timeline" onClick={() => void openRequests(run, "timeline")}>
            <ChartGantt size={14} aria-hidden /> {t("sample.timeline")}
          </button>
        </div>
      )}
      <LoadCharts points={r.series} steps={r.steps} />
      {r.series_cut && <p className="muted small">{t("seriesCut")}</p>}
      <table className="load-table" data-testid="load-ops">
        <thead>
          <tr>
            <th scope="col">{t("col.request")}</th>
            <th scope="col">{t("col.completed")}</th>
            <th scope="col">{t("col.failed")}</th>
            <th scope="col">{t("col.errorPct")}</th>
            <th scope="col">{t("col.throughput")}</th>
            <th scope="col">{t("col.p50")}</th>
            <th scope="col">{t("col.p90")}</th>
            <th scope="col">{t("col.p99")}</th>
            <th scope="col">{t("col.p999")}</th>
            <th scope="col">{t("col.max")}</th>
          </tr>
        </thead>
        <tbody>
          <OpRow op={r.total} strong />
          {ops.map((op) => (
            <OpRow key={label(op)} op={op} />
          ))}
        </tbody>
      </table>
      {failures.length > 0 && (
        <div className="load-failures" data-testid="load-failures">
          <h4>{t("failuresTitle")}</h4>
          <ul>
            {failures.map(({ op, f }) => (
              <li key={`${label(op)}-${failure(f)}`} data-testid="load-failure" data-kind={f.kind}>
                <span className="mono">{label(op)}</span>: {failure(f)} × {formatNumber(f.count)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {ramp && r.steps.length > 0 && (
        <table className="load-table" data-testid="load-steps">
          <thead>
            <tr>
              <th scope="col">{t("col.step")}</th>
              <th scope="col">{t(`col.level.${ramp.axis}`)}</th>
              <th scope="col">{t("col.completed")}</th>
              <th scope="col">{t("col.errorPct")}</th>
              <th scope="col">{t("col.throughput")}</th>
              <th scope="col">{t("col.p99")}</th>
              <th scope="col">{t("col.crossed")}</th>
            </tr>
          </thead>
          <tbody>
            {r.steps.map((s) => (
              <tr key={s.step} className={s.crossed ? "load-step-broke" : undefined} data-testid="load-step" data-crossed={s.crossed !== null}>
                <th scope="row">{s.step}</th>
                <td>{+s.level.toFixed(2)}</td>
                <td>{formatNumber(s.total.completed)}</td>
                <td>{s.total.error_rate_pct.toFixed(2)}</td>
                <td>{rate(s.total.throughput)}</td>
                <td>{ms(s.total.latency?.p99_ms)}</td>
                <td>{s.crossed ? crossed(s.crossed) : ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted small" data-testid="load-cost">
        {r.cpu.server_cpu_s !== null
          ? t("cost.cpu", {
              own: r.cpu.own_cpu_s.toFixed(2),
              server: r.cpu.server_cpu_s.toFixed(2),
              share: r.cpu.own_over_server === null ? "–" : Math.round(r.cpu.own_over_server * 100),
            })
          : t("cost.ownOnly", { own: r.cpu.own_cpu_s.toFixed(2) })}
        {r.server_peak_rss_bytes !== null && ` ${t("cost.rss", { rss: formatBytes(r.server_peak_rss_bytes) })}`}
        {r.connections_max !== null && ` ${t("cost.connections", { n: r.connections_max })}`}
      </p>
    </section>
  );
}
