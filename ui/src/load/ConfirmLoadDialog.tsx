// Consent before effect: what a prepared run will send, where, through how many sessions and
// server processes, how hard and until when, with the tools the server marks destructive and
// the ones it does not list named. Nothing of the workload is sent until "Send it".
import { TriangleAlert } from "lucide-react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { LoadPlan } from "../bindings/LoadPlan";
import type { LoadSummary } from "../bindings/LoadSummary";
import { Dialog } from "../dialog/Dialog";
import { formatNumber } from "../format";
import { discardLoad, startLoad } from "./actions";

function planWords(plan: LoadPlan, t: TFunction<"load">): string[] {
  const lines = [t("confirm.sessions", { sessions: plan.sessions, inFlight: plan.in_flight })];
  if (plan.ramp) {
    lines.push(
      t(`confirm.ramp.${plan.ramp.axis}`, {
        start: plan.ramp.start,
        step: plan.ramp.step,
        steps: plan.ramp.steps,
        seconds: plan.ramp.step_ms / 1000,
      }),
    );
    lines.push(
      plan.ramp.max_p99_ms === null
        ? t("confirm.breaks", { error: plan.ramp.max_error_rate_pct })
        : t("confirm.breaksP99", { error: plan.ramp.max_error_rate_pct, p99: plan.ramp.max_p99_ms }),
    );
  } else {
    lines.push(plan.rate === null ? t("confirm.closed") : t("confirm.rate", { rate: plan.rate }));
    if (plan.count !== null) lines.push(t("confirm.count", { count: formatNumber(plan.count) }));
    if (plan.duration_ms !== null) lines.push(t("confirm.duration", { seconds: plan.duration_ms / 1000 }));
  }
  lines.push(t("confirm.cap", { cap: formatNumber(plan.max_requests), timeout: plan.timeout_ms / 1000 }));
  return lines;
}

export function ConfirmLoadDialog({ serverId, summary }: { serverId: string; summary: LoadSummary }) {
  const { t } = useTranslation(["load", "common"]);
  const { t: say } = useTranslation("load");
  return (
    <Dialog
      title={t("confirm.title")}
      onClose={() => void discardLoad(serverId)}
      testId="load-confirm-dialog"
      dismiss={{ label: t("common:cancel"), testId: "load-discard" }}
      footer={
        <button type="button" className="button button-primary" data-testid="load-confirm" onClick={() => void startLoad(serverId)}>
          {t("confirm.send")}
        </button>
      }
    >
      <p>{t("confirm.intro")}</p>
      <dl className="load-summary" data-testid="load-summary">
        <dt>{t("confirm.where")}</dt>
        <dd className="mono">{summary.targets.join(", ")}</dd>
        <dt>{t("confirm.what")}</dt>
        <dd>
          <ul className="load-requests">
            {summary.requests.map(([line, weight]) => (
              <li key={line} className="mono" data-testid="load-summary-request">
                {line}
                {summary.requests.length > 1 && <span className="muted"> × {weight}</span>}
              </li>
            ))}
          </ul>
        </dd>
        <dt>{t("confirm.how")}</dt>
        <dd>
          {planWords(summary.plan, say).map((line) => (
            <div key={line}>{line}</div>
          ))}
          {summary.processes > 0 && <div data-testid="load-summary-processes">{t("confirm.processes", { count: summary.processes })}</div>}
        </dd>
      </dl>
      {summary.destructive.length > 0 && (
        <p className="load-warning" data-testid="load-summary-destructive">
          <TriangleAlert size={14} aria-hidden /> {t("confirm.destructive", { tools: summary.destructive.join(", ") })}
        </p>
      )}
      {summary.unlisted.length > 0 && (
        <p className="load-warning" data-testid="load-summary-unlisted">
          {t("confirm.unlisted", { tools: summary.unlisted.join(", ") })}
        </p>
      )}
    </Dialog>
  );
}
