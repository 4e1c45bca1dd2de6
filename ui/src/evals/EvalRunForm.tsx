// The run form of the Evals view: which models (Settings → Models) and judge, how many
// repetitions and how many at once, which variants of the suite and which cases, and which
// tool calls may run — read-only tools auto-approved only when asked, any other tool only when
// allowed here by name (destructive ones marked), everything else refused to the model.
import { TriangleAlert } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import type { ToolView } from "../bindings/ToolView";
import { useLists } from "../common/useLists";
import type { ListKind } from "../ipc";
import { loadProviders, useProviders } from "../models/state";
import type { ServerState } from "../state/connections";
import { changeEvals, toggled, useServerEvals, type EvalForm } from "../state/evals";
import { useServerLists } from "../state/lists";

const TOOLS: readonly ListKind[] = ["tools"];

/** Tools a run would refuse unless allowed by name: those a model may see that are not marked
 * read-only (an app-only tool is never offered to a model). */
export function needsAllowing(tools: ToolView[]): ToolView[] {
  return tools.filter(
    (tool) => tool.name !== null && tool.annotations.read_only_hint !== true && (tool.app?.model_visible ?? true),
  );
}

export function EvalRunForm({ server }: { server: ServerState }) {
  const { t } = useTranslation(["evals", "common"]);
  const state = useServerEvals(server.id);
  const providers = useProviders();
  const tools = useServerLists(server.id).tools.items;
  useLists(server, TOOLS);
  useEffect(() => void loadProviders(), []);
  const form = state.form;
  const outline = state.check?.outline ?? null;
  const change = (f: (form: EvalForm) => EvalForm) => changeEvals(server.id, (s) => ({ ...s, form: f(s.form) }));
  const number = (value: string, fallback: number) => (Number.isFinite(Number(value)) && value !== "" ? Number(value) : fallback);
  const disabled = state.running;
  const others = needsAllowing(tools);
  const nothingRuns = !form.readOnly && form.allowed.length === 0;
  return (
    <fieldset className="load-form" disabled={disabled} data-testid="evals-form">
      <legend className="load-row-title">{t("form.title")}</legend>
      <div className="load-row">
        <span className="load-row-title">{t("form.models")}</span>
        {providers !== null && providers.length === 0 && <span className="muted small">{t("form.noModels")}</span>}
        {(providers ?? []).map(({ provider }) => (
          <label key={provider.id} className="load-choice">
            <input
              type="checkbox"
              checked={form.models.includes(provider.id)}
              data-testid={`evals-model-${provider.id}`}
              onChange={(event) => change((f) => ({ ...f, models: toggled(f.models, provider.id, event.target.checked) }))}
            />
            {provider.name}
          </label>
        ))}
      </div>
      <div className="load-row">
        <label className="load-field">
          {t("form.repeat")}
          <input
            type="number"
            min={1}
            max={100}
            value={form.repeat}
            data-testid="evals-repeat"
            onChange={(event) => change((f) => ({ ...f, repeat: number(event.target.value, f.repeat) }))}
          />
        </label>
        <label className="load-field">
          {t("form.concurrency")}
          <input
            type="number"
            min={1}
            max={32}
            value={form.concurrency}
            data-testid="evals-concurrency"
            onChange={(event) => change((f) => ({ ...f, concurrency: number(event.target.value, f.concurrency) }))}
          />
        </label>
        <label className="load-field" title={t("form.maxTokensHint")}>
          {t("form.maxTokens")}
          <input
            type="number"
            min={1}
            value={form.maxTokens ?? ""}
            data-testid="evals-max-tokens"
            onChange={(event) => change((f) => ({ ...f, maxTokens: event.target.value === "" ? null : number(event.target.value, 0) }))}
          />
        </label>
        <label className="load-field">
          {t("form.judge")}
          <select
            value={form.judge ?? ""}
            data-testid="evals-judge"
            onChange={(event) => change((f) => ({ ...f, judge: event.target.value || null }))}
          >
            <option value="">{t("form.noJudge")}</option>
            {(providers ?? []).map(({ provider }) => (
              <option key={provider.id} value={provider.id}>
                {provider.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      {outline && outline.variants.length > 0 && (
        <div className="load-row">
          <span className="load-row-title">{t("form.variants")}</span>
          {outline.variants.map((name) => (
            <label key={name} className="load-choice">
              <input
                type="checkbox"
                checked={form.variants.includes(name)}
                data-testid={`evals-variant-${name}`}
                onChange={(event) => change((f) => ({ ...f, variants: toggled(f.variants, name, event.target.checked) }))}
              />
              {name}
            </label>
          ))}
        </div>
      )}
      {outline && (
        <div className="load-row">
          <span className="load-row-title">{t("form.cases")}</span>
          <label className="load-choice">
            <input
              type="checkbox"
              checked={form.cases.length === 0}
              data-testid="evals-all-cases"
              onChange={() => change((f) => ({ ...f, cases: [] }))}
            />
            {t("form.allCases")}
          </label>
          {outline.cases.map((id) => (
            <label key={id} className="load-choice">
              <input
                type="checkbox"
                checked={form.cases.includes(id)}
                data-testid={`evals-case-${id}`}
                onChange={(event) => change((f) => ({ ...f, cases: toggled(f.cases, id, event.target.checked) }))}
              />
              {id}
            </label>
          ))}
        </div>
      )}
      <div className="load-row">
        <span className="load-row-title">{t("form.approvals")}</span>
        <label className="load-choice">
          <input
            type="checkbox"
            checked={form.readOnly}
            data-testid="evals-read-only"
            onChange={(event) => change((f) => ({ ...f, readOnly: event.target.checked }))}
          />
          {t("form.readOnly")}
        </label>
        <p className="muted small">{t("form.allowHint")}</p>
        {others.map((tool) => {
          const name = tool.name ?? "";
          const destructive = tool.annotations.destructive_hint !== false;
          return (
            <label key={name} className="load-choice" title={t("form.allow", { tool: name })}>
              <input
                type="checkbox"
                checked={form.allowed.includes(name)}
                data-testid={`evals-allow-${name}`}
                onChange={(event) => change((f) => ({ ...f, allowed: toggled(f.allowed, name, event.target.checked) }))}
              />
              {name}
              <span className={destructive ? "evals-destructive small" : "muted small"}>
                {destructive ? t("form.destructive") : t("form.notReadOnly")}
              </span>
            </label>
          );
        })}
        {nothingRuns && (
          <p className="load-warning small" data-testid="evals-nothing-runs">
            <TriangleAlert size={14} aria-hidden /> {t("form.noApprovals")}
          </p>
        )}
      </div>
    </fieldset>
  );
}
