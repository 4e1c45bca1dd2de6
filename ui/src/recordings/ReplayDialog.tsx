import { Play } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { RecordingInfo } from "../bindings/RecordingInfo";
import type { ReplayReport } from "../bindings/ReplayReport";
import type { ReplayStep } from "../bindings/ReplayStep";
import { ErrorBox } from "../common/ErrorBox";
import { Dialog } from "../dialog/Dialog";
import { errorMessage, resendIpc } from "../ipc";
import { ChangeList } from "../diff/ChangeList";
import { ServerPicker, useConnectedServers } from "./ServerPicker";

/** "Replay against…": the recording's client messages sent to a connected server, compared. */
export function ReplayDialog({ info, onClose }: { info: RecordingInfo; onClose: () => void }) {
  const { t } = useTranslation(["recordings", "common"]);
  const connected = useConnectedServers();
  const [target, setTarget] = useState(connected[0]?.id ?? "");
  const [ignore, setIgnore] = useState("");
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<ReplayReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    setReport(null);
    try {
      const pointers = ignore
        .split(/[\s,]+/)
        .map((p) => p.trim())
        .filter((p) => p.startsWith("/"));
      setReport(await resendIpc.replayRecording(info.id, target, pointers));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={t("replay.title")}
      onClose={onClose}
      testId="replay-dialog"
      className="modal-wide"
      dismiss={{ label: t("common:close") }}
      footer={
        <button type="button" className="button button-primary" data-testid="replay-run" disabled={busy || !target} onClick={() => void run()}>
          <Play size={14} aria-hidden />
          {busy ? t("replay.running") : t("replay.run")}
        </button>
      }
    >
      <p className="muted">{t("replay.explain")}</p>
      <ServerPicker value={target} onChange={setTarget} testId="replay-server" />
      <label className="field">
        <span className="field-label">{t("replay.ignore")}</span>
        <input className="mono" data-testid="replay-ignore" value={ignore} onChange={(e) => setIgnore(e.target.value)} />
      </label>
      {error && <ErrorBox message={error} />}
      {report && <ReplayResult report={report} />}
    </Dialog>
  );
}

function outcomeWord(step: ReplayStep): "same" | "sent" | "differs" | "noAnswer" | "error" | "notRecorded" {
  switch (step.outcome.kind) {
    case "same":
      return "same";
    case "sent":
      return "sent";
    case "differs":
      return "differs";
    case "no_answer":
      return "noAnswer";
    case "error":
      return "error";
    case "not_recorded":
      return "notRecorded";
  }
}

/** The report: each step with its outcome, each difference with before and after. */
function ReplayResult({ report }: { report: ReplayReport }) {
  const { t } = useTranslation("recordings");
  const same = report.steps.filter((s) => s.outcome.kind === "same" || s.outcome.kind === "sent").length;
  return (
    <section className="section" data-testid="replay-report">
      <h3 data-testid="replay-summary">{t("replay.summary", { same, total: report.steps.length, skipped: report.skipped.length })}</h3>
      <ul className="recorded-items">
        {report.skipped.map((s) => (
          <li key={`skip-${s.recorded_seq}`} className="recorded-item muted" data-testid="replay-skipped">
            <span className="mono">{s.method}</span> {t(`replay.skip.${s.reason}`)}
          </li>
        ))}
        {report.steps.map((step) => (
          <li key={step.recorded_seq} className={`recorded-item replay-${step.outcome.kind}`} data-testid="replay-step" data-outcome={step.outcome.kind} data-method={step.method}>
            <span className="mono">{step.method}</span> <strong>{t(`replay.outcome.${outcomeWord(step)}`)}</strong>
            {step.outcome.kind === "error" && <div className="text-danger">{step.outcome.message}</div>}
            {step.outcome.kind === "differs" && <ChangeList changes={step.outcome.changes} />}
          </li>
        ))}
      </ul>
    </section>
  );
}
