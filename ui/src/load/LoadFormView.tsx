// The Load view's form: what to send (a tool of the server with its arguments, a weighted mix of
// its saved calls, or an open recording's requests), how hard (sessions, requests in flight
// each, closed loop or a fixed rate), until when (a count, a duration, or a ramp up to the
// breaking point with its thresholds), and the cap and the time limit of each request.
import { useTranslation } from "react-i18next";
import type { RampAxis } from "../bindings/RampAxis";
import type { ToolView } from "../bindings/ToolView";
import { useRecordings } from "../state/recordings";
import type { ListState } from "../state/lists";
import { useServerSaved } from "../state/saved";
import type { End, LoadForm, Pace, Source } from "../state/loadPlan";

const SOURCES: readonly Source[] = ["tool", "saved", "recording"];
const ENDS: readonly End[] = ["count", "duration", "ramp"];
const AXES: readonly RampAxis[] = ["concurrency", "rate"];

interface Props {
  serverId: string;
  form: LoadForm;
  tools: ListState<ToolView>;
  disabled: boolean;
  onChange: (form: LoadForm) => void;
}

type NumberKey = "sessions" | "inFlight" | "rate" | "count" | "durationS" | "rampStart" | "rampStep" | "rampSteps" | "stepS" | "breakErrorPct" | "maxRequests" | "timeoutS";

/** Each number field's label, and whether it takes fractions. */
const NUMBER_FIELDS = {
  sessions: { label: "form.sessions", fraction: false },
  inFlight: { label: "form.inFlight", fraction: false },
  rate: { label: "form.rate", fraction: true },
  count: { label: "form.count", fraction: false },
  durationS: { label: "form.duration", fraction: true },
  rampStart: { label: "form.rampStart", fraction: true },
  rampStep: { label: "form.rampStep", fraction: true },
  rampSteps: { label: "form.rampSteps", fraction: false },
  stepS: { label: "form.stepS", fraction: true },
  breakErrorPct: { label: "form.breakErrorPct", fraction: true },
  maxRequests: { label: "form.cap", fraction: false },
  timeoutS: { label: "form.timeout", fraction: true },
} as const satisfies Record<NumberKey, { label: string; fraction: boolean }>;

/** A number field of the form (an empty field reads as no number, which the plan refuses). */
function NumberField({ form, field, onChange }: { form: LoadForm; field: NumberKey; onChange: (form: LoadForm) => void }) {
  const { t } = useTranslation("load");
  const spec = NUMBER_FIELDS[field];
  return (
    <label className="load-field">
      {t(spec.label)}
      <input
        type="number"
        min={0}
        step={spec.fraction ? "any" : "1"}
        value={Number.isFinite(form[field]) ? form[field] : ""}
        data-testid={`load-${field}`}
        onChange={(event) => onChange({ ...form, [field]: event.target.value === "" ? Number.NaN : Number(event.target.value) })}
      />
    </label>
  );
}

export function LoadFormView({ serverId, form, tools, disabled, onChange }: Props) {
  const { t } = useTranslation("load");
  const saved = useServerSaved(serverId).calls;
  const openRecordings = useRecordings((s) => s.list);
  const names = (tools.status === "loaded" ? tools.items : []).flatMap((tool) => (tool.name === null ? [] : [tool]));
  const picked = names.find((tool) => tool.name === form.tool);
  return (
    <fieldset className="load-form" disabled={disabled} data-testid="load-form">
      <div className="load-row" role="radiogroup" aria-label={t("form.source")}>
        <span className="load-row-title">{t("form.source")}</span>
        {SOURCES.map((source) => (
          <label key={source} className="load-choice">
            <input type="radio" name={`load-source-${serverId}`} checked={form.source === source} data-testid={`load-source-${source}`} onChange={() => onChange({ ...form, source })} />
            {t(`form.sources.${source}`)}
          </label>
        ))}
      </div>
      {form.source === "tool" && (
        <div className="load-row">
          <label className="load-field">
            {t("form.tool")}
            <select value={form.tool} data-testid="load-tool" onChange={(event) => onChange({ ...form, tool: event.target.value })}>
              <option value="">{t("form.pickTool")}</option>
              {names.map((tool) => (
                <option key={tool.name} value={tool.name ?? ""}>
                  {tool.name}
                  {tool.annotations.destructive_hint === true ? ` ${t("form.destructiveMark")}` : ""}
                </option>
              ))}
            </select>
          </label>
          <label className="load-field load-args">
            {t("form.args")}
            <input type="text" className="mono" value={form.args} spellCheck={false} data-testid="load-args" onChange={(event) => onChange({ ...form, args: event.target.value })} />
          </label>
          {picked?.annotations.destructive_hint === true && (
            <p className="load-warning small" data-testid="load-destructive-note">
              {t("form.destructive", { tool: picked.name })}
            </p>
          )}
          {tools.status !== "loaded" && <p className="muted small">{t("form.toolsUnknown")}</p>}
        </div>
      )}
      {form.source === "saved" && (
        <div className="load-row" data-testid="load-saved">
          {saved.length === 0 && <p className="muted small">{t("form.noSaved")}</p>}
          {saved.map((call) => (
            <label key={call.id} className="load-field load-weight">
              <span className="mono">{call.name}</span>
              <input
                type="number"
                min={0}
                value={form.saved[call.id] ?? 0}
                aria-label={t("form.weight", { name: call.name })}
                data-testid={`load-weight-${call.name}`}
                onChange={(event) => onChange({ ...form, saved: { ...form.saved, [call.id]: Number(event.target.value) || 0 } })}
              />
            </label>
          ))}
          {saved.length > 0 && <p className="muted small">{t("form.weights")}</p>}
        </div>
      )}
      {form.source === "recording" && (
        <div className="load-row">
          <label className="load-field">
            {t("form.recording")}
            <select value={form.recording} data-testid="load-recording" onChange={(event) => onChange({ ...form, recording: event.target.value })}>
              <option value="">{t("form.pickRecording")}</option>
              {openRecordings.map((r) => (
                <option key={r.id} value={r.path}>
                  {r.name}
                </option>
              ))}
            </select>
          </label>
          {openRecordings.length === 0 && <p className="muted small">{t("form.noRecordings")}</p>}
        </div>
      )}
      <div className="load-row">
        {<NumberField form={form} field="sessions" onChange={onChange} />}
        {<NumberField form={form} field="inFlight" onChange={onChange} />}
        {form.end !== "ramp" && (
          <label className="load-field">
            {t("form.pace")}
            <select value={form.pace} data-testid="load-pace" onChange={(event) => onChange({ ...form, pace: event.target.value as Pace })}>
              <option value="closed">{t("form.paces.closed")}</option>
              <option value="rate">{t("form.paces.rate")}</option>
            </select>
          </label>
        )}
        {form.end !== "ramp" && form.pace === "rate" && <NumberField form={form} field="rate" onChange={onChange} />}
      </div>
      <div className="load-row" role="radiogroup" aria-label={t("form.end")}>
        <span className="load-row-title">{t("form.end")}</span>
        {ENDS.map((end) => (
          <label key={end} className="load-choice">
            <input type="radio" name={`load-end-${serverId}`} checked={form.end === end} data-testid={`load-end-${end}`} onChange={() => onChange({ ...form, end })} />
            {t(`form.ends.${end}`)}
          </label>
        ))}
        {form.end === "count" && <NumberField form={form} field="count" onChange={onChange} />}
        {form.end === "duration" && <NumberField form={form} field="durationS" onChange={onChange} />}
      </div>
      {form.end === "ramp" && (
        <div className="load-row" data-testid="load-ramp">
          <label className="load-field">
            {t("form.rampAxis")}
            <select value={form.rampAxis} data-testid="load-ramp-axis" onChange={(event) => onChange({ ...form, rampAxis: event.target.value as RampAxis })}>
              {AXES.map((axis) => (
                <option key={axis} value={axis}>
                  {t(`form.axes.${axis}`)}
                </option>
              ))}
            </select>
          </label>
          {<NumberField form={form} field="rampStart" onChange={onChange} />}
          {<NumberField form={form} field="rampStep" onChange={onChange} />}
          {<NumberField form={form} field="rampSteps" onChange={onChange} />}
          {<NumberField form={form} field="stepS" onChange={onChange} />}
          {<NumberField form={form} field="breakErrorPct" onChange={onChange} />}
          <label className="load-field">
            {t("form.breakP99")}
            <input type="text" inputMode="decimal" value={form.breakP99Ms} placeholder={t("form.none")} data-testid="load-break-p99" onChange={(event) => onChange({ ...form, breakP99Ms: event.target.value })} />
          </label>
        </div>
      )}
      <div className="load-row">
        {<NumberField form={form} field="maxRequests" onChange={onChange} />}
        {<NumberField form={form} field="timeoutS" onChange={onChange} />}
      </div>
    </fieldset>
  );
}
