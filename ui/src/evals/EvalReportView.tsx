// A kept eval run: what ran (models × variants × repetitions), the bounds it hit and what it
// noticed, each model's total, each case's pass rate with its 95% interval, latency and tokens
// per model and variant (a cell opens the case's repetitions), each variant against the
// server's wording, and Periscope's own time. The comparison with an earlier run is here too.
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { EvalCaseComparison } from "../bindings/EvalCaseComparison";
import type { EvalCaseSummary } from "../bindings/EvalCaseSummary";
import type { EvalRun } from "../bindings/EvalRun";
import { formatNumber } from "../format";
import type { OpenCase } from "../state/evals";
import { openCase } from "./actions";
import { describeBound, describeNotice, pct, points } from "./describe";
import { EvalTrials } from "./EvalTrials";

export function EvalReportView({ serverId, run, open }: { serverId: string; run: EvalRun; open: OpenCase | null }) {
  const { t } = useTranslation("evals");
  const r = run.report;
  const columns = r.models.flatMap((model) => r.variants.map((variant) => ({ model, variant })));
  const cases = [...new Set(r.summaries.map((s) => s.case))];
  const cell = (c: string, model: string, variant: string) =>
    r.summaries.find((s) => s.case === c && s.model === model && s.variant === variant);
  // A run that just ended (or one picked) is brought into sight below the suite and the form.
  const top = useRef<HTMLElement>(null);
  useEffect(() => top.current?.scrollIntoView?.({ block: "start" }), [run.id]);
  return (
    <section className="load-report" data-testid="evals-report" data-run={run.id} ref={top}>
      <p className="load-headline">
        {t("report.headline", {
          models: r.models.join(", "),
          variants: r.variants.join(", "),
          repeat: r.repeat,
          seconds: (r.elapsed_ms / 1000).toFixed(1),
        })}
      </p>
      {r.bounds.map((b, i) => (
        <p key={`b${i}`} className="load-warning small" data-testid="evals-bound" data-kind={b.kind}>
          {describeBound(b)}
        </p>
      ))}
      {r.notices.map((n, i) => (
        <p key={`n${i}`} className="muted small" data-testid="evals-notice" data-kind={n.kind}>
          {describeNotice(n)}
        </p>
      ))}
      {r.totals.map((total) => (
        <p
          key={`${total.model}/${total.variant}`}
          className="evals-total"
          data-testid="evals-total"
          data-model={total.model}
          data-variant={total.variant}
          data-passed={total.passed}
          data-trials={total.trials}
        >
          {t("report.total", {
            model: total.model,
            variant: total.variant,
            passed: total.passed,
            trials: total.trials,
            rate: pct(total.pass_rate),
            low: pct(total.interval.low),
            high: pct(total.interval.high),
          })}
        </p>
      ))}
      <div className="evals-table-wrap">
        <table className="load-table evals-table" data-testid="evals-cases">
          <thead>
            <tr>
              <th scope="col">{t("report.case")}</th>
              {columns.map(({ model, variant }) => (
                <th key={`${model}/${variant}`} scope="col">
                  {model}
                  <br />
                  <span className="muted">{variant}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {cases.map((c) => (
              <tr key={c}>
                <th scope="row">{c}</th>
                {columns.map(({ model, variant }) => {
                  const s = cell(c, model, variant);
                  const isOpen = open?.case === c && open.model === model && open.variant === variant;
                  return (
                    <td key={`${model}/${variant}`}>
                      {s && <CaseCell serverId={serverId} summary={s} open={isOpen} />}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {r.comparisons.map((c) => (
        <div key={`${c.model}/${c.variant}`} className="evals-variant" data-testid="evals-variant" data-variant={c.variant} data-beyond={c.total.beyond_noise}>
          <p className={c.total.beyond_noise ? "evals-beyond" : "muted"}>
            {t("report.variant", {
              variant: c.variant,
              model: c.model,
              delta: points(c.total.delta),
              low: points(c.total.interval.low),
              high: points(c.total.interval.high),
            })}
            {": "}
            {c.total.beyond_noise ? t("report.beyondNoise") : t("report.withinNoise")}
          </p>
        </div>
      ))}
      {r.overhead && (
        <p className="muted small" data-testid="evals-overhead">
          {t("report.overhead", { p50: (r.overhead.p50_us / 1000).toFixed(2), p95: (r.overhead.p95_us / 1000).toFixed(2) })}
        </p>
      )}
      {open && <EvalTrials serverId={serverId} run={run} open={open} />}
    </section>
  );
}

function CaseCell({ serverId, summary: s, open }: { serverId: string; summary: EvalCaseSummary; open: boolean }) {
  const { t } = useTranslation("evals");
  if (s.trials === 0) return <span className="muted">–</span>;
  const all = s.passed === s.trials;
  return (
    <button
      type="button"
      className={`evals-cell ${all ? "evals-pass" : s.passed === 0 ? "evals-fail" : "evals-flaky"}`}
      aria-pressed={open}
      aria-label={t("report.open", { case: s.case, model: s.model, variant: s.variant })}
      data-testid="evals-cell"
      data-case={s.case}
      data-model={s.model}
      data-variant={s.variant}
      data-passed={s.passed}
      data-trials={s.trials}
      onClick={() => openCase(serverId, open ? null : { case: s.case, model: s.model, variant: s.variant, repetition: null })}
    >
      <strong>
        {s.passed}/{s.trials}
      </strong>{" "}
      <span>{pct(s.pass_rate)}%</span>{" "}
      <span className="muted small">
        [{pct(s.interval.low)}–{pct(s.interval.high)}]
      </span>
      <br />
      <span className="muted small">
        {s.p50_ms !== null && `${t("report.p50")} ${formatNumber(Math.round(s.p50_ms))} ms`}
        {s.p95_ms !== null && ` · ${t("report.p95")} ${formatNumber(Math.round(s.p95_ms))} ms`}
        {s.mean_tokens !== null && ` · ${t("report.tokensUnit", { count: Math.round(s.mean_tokens), n: formatNumber(Math.round(s.mean_tokens)) })}`}
        {s.judge_passed !== null && ` · ${t("report.judge")} ${s.judge_passed[0]}/${s.judge_passed[1]}`}
      </span>
    </button>
  );
}

/** The shown run against an earlier one, case by case. */
export function EvalComparison({ rows }: { rows: EvalCaseComparison[] }) {
  const { t } = useTranslation("evals");
  const rate = (p: [number, number] | null) => (p === null ? "–" : `${p[0]}/${p[1]}`);
  return (
    <section className="load-comparison" data-testid="evals-comparison">
      <h3>{t("compare.title")}</h3>
      <ul className="evals-compare-list">
        {rows.map((row) => (
          <li key={`${row.case}/${row.model}/${row.variant}`} data-testid="evals-compare-row" data-change={row.change} data-case={row.case}>
            <span className={`evals-change evals-change-${row.change}`}>{t(`compare.${row.change}`)}</span>{" "}
            {t("compare.line", { case: row.case, model: row.model, variant: row.variant, before: rate(row.before), after: rate(row.after) })}
            {row.difference && ` (${points(row.difference.delta)})`}
          </li>
        ))}
      </ul>
    </section>
  );
}
