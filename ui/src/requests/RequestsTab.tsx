// What the app answers on the user's behalf for one server (its roots, an optional sampling
// reply rule) and the history of every decision about the server's requests this session.
import { Bot, Check, FolderOpen, Plus, Trash2, TriangleAlert } from "lucide-react";
import { useEffect, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { loadHostSettings, saveHostSettings } from "../actions/asks";
import type { Decision } from "../bindings/Decision";
import type { HostSettings } from "../bindings/HostSettings";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import i18n from "../i18n";
import { problemText } from "../i18n/problem";
import { errorMessage, ipc } from "../ipc";
import { loadProviders, useProviders } from "../models/state";
import type { ServerState } from "../state/connections";
import { useServerRequests } from "../state/asks";

export function RequestsTab({ server }: { server: ServerState }) {
  const { settings, settingsError } = useServerRequests(server.id);
  useEffect(() => {
    if (settings === null) void loadHostSettings(server.id);
  }, [server.id, settings]);
  return (
    <div className="requests-tab">
      {settingsError && <ErrorBox message={settingsError} />}
      {settings && (
        <>
          <RootsEditor serverId={server.id} settings={settings} />
          <SamplingRuleEditor serverId={server.id} settings={settings} />
          <ModelRuleEditor serverId={server.id} settings={settings} />
        </>
      )}
      <History server={server} />
    </div>
  );
}

function RootsEditor({ serverId, settings }: { serverId: string; settings: HostSettings }) {
  const { t } = useTranslation(["requests", "common"]);
  const [path, setPath] = useState("");
  const [error, setError] = useState<string | null>(null);
  const save = (roots: HostSettings["roots"]) => saveHostSettings(serverId, { ...settings, roots });
  const add = async (pick: () => Promise<HostSettings["roots"][number] | null>) => {
    try {
      const root = await pick();
      if (!root) return;
      setError(null);
      if (settings.roots.some((r) => r.uri === root.uri)) {
        setError(t("roots.already", { uri: root.uri }));
        return;
      }
      await save([...settings.roots, root]);
      setPath("");
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <section className="requests-section" data-testid="roots-editor">
      <h3>{t("roots.title")}</h3>
      <p className="hint">
        <Trans t={t} i18nKey="roots.hint" components={{ code: <code /> }} />
      </p>
      {settings.roots.length === 0 ? (
        <p className="muted" data-testid="roots-empty">
          {t("roots.empty")}
        </p>
      ) : (
        <ul className="roots-list">
          {settings.roots.map((root) => (
            <li key={root.uri} className="root-item" data-testid="root-item" data-uri={root.uri}>
              <code>{root.uri}</code>
              {root.name && <span className="muted">{root.name}</span>}
              <button
                type="button"
                className="icon-button"
                aria-label={t("roots.remove", { uri: root.uri })}
                title={t("common:remove")}
                data-testid="root-remove"
                onClick={() => void save(settings.roots.filter((r) => r.uri !== root.uri))}
              >
                <Trash2 size={14} aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="roots-add"
        onSubmit={(e) => {
          e.preventDefault();
          void add(() => ipc.rootOfPath(path));
        }}
      >
        <input
          type="text"
          value={path}
          placeholder={t("roots.pathPlaceholder")}
          aria-label={t("roots.path")}
          data-testid="root-path-input"
          onChange={(e) => setPath(e.target.value)}
        />
        <button type="submit" data-testid="root-add" disabled={path.trim() === ""}>
          <Plus size={14} aria-hidden /> {t("common:add")}
        </button>
        <button type="button" data-testid="root-browse" onClick={() => void add(() => ipc.pickFolder())}>
          <FolderOpen size={14} aria-hidden /> {t("roots.browse")}
        </button>
      </form>
      {error && <ErrorBox message={error} />}
    </section>
  );
}

function SamplingRuleEditor({ serverId, settings }: { serverId: string; settings: HostSettings }) {
  const { t } = useTranslation(["requests", "common"]);
  const rule = settings.sampling_rule;
  const [text, setText] = useState(rule?.text ?? "");
  const [model, setModel] = useState(rule?.model ?? "periscope-rule");
  const on = rule !== null;
  const save = (next: HostSettings["sampling_rule"]) =>
    saveHostSettings(serverId, { ...settings, sampling_rule: next });
  return (
    <section className="requests-section" data-testid="sampling-rule">
      <h3>
        <Bot size={16} aria-hidden /> {t("rule.title")}
      </h3>
      <p className="hint">
        <Trans t={t} i18nKey="rule.hint" components={{ code: <code /> }} />
      </p>
      {on && (
        <div className="rule-on-banner" data-testid="sampling-rule-on">
          <TriangleAlert size={14} aria-hidden /> {t("rule.on", { text: rule.text, model: rule.model })}
        </div>
      )}
      <div className="rule-fields">
        <label>
          {t("rule.replyText")}
          <textarea
            value={text}
            rows={2}
            data-testid="sampling-rule-text"
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <label>
          {t("rule.model")}
          <input
            type="text"
            value={model}
            data-testid="sampling-rule-model"
            onChange={(e) => setModel(e.target.value)}
          />
        </label>
      </div>
      <div className="rule-actions">
        <button
          type="button"
          data-testid="sampling-rule-save"
          disabled={text.trim() === "" || model.trim() === ""}
          onClick={() => void save({ text, model: model.trim() })}
        >
          <Check size={14} aria-hidden /> {on ? t("rule.update") : t("rule.turnOn")}
        </button>
        {on && (
          <button type="button" data-testid="sampling-rule-off" onClick={() => void save(null)}>
            {t("rule.turnOff")}
          </button>
        )}
      </div>
    </section>
  );
}

/** "Sampling by a model": which configured model drafts, and whether its answers go unasked. */
function ModelRuleEditor({ serverId, settings }: { serverId: string; settings: HostSettings }) {
  const { t } = useTranslation("requests");
  const providers = useProviders();
  useEffect(() => {
    if (providers === null) void loadProviders();
  }, [providers]);
  const rule = settings.sampling_model;
  const [providerId, setProviderId] = useState(rule?.provider_id ?? "");
  const [auto, setAuto] = useState(rule?.auto_approve ?? false);
  const save = (next: HostSettings["sampling_model"]) =>
    saveHostSettings(serverId, { ...settings, sampling_model: next });
  const chosen = providerId || providers?.[0]?.provider.id || "";
  const name = (id: string) => providers?.find((p) => p.provider.id === id)?.provider.name ?? id;
  return (
    <section className="requests-section" data-testid="model-rule">
      <h3>
        <Bot size={16} aria-hidden /> {t("modelRule.title")}
      </h3>
      <p className="hint">{t("modelRule.hint")}</p>
      {rule?.auto_approve && (
        <div className="rule-on-banner" data-testid="model-rule-auto-on">
          <TriangleAlert size={14} aria-hidden /> {t("modelRule.autoOn", { name: name(rule.provider_id) })}
        </div>
      )}
      {providers !== null && providers.length === 0 ? (
        <p className="muted">{t("modelRule.noModels")}</p>
      ) : (
        <div className="rule-fields">
          <label>
            {t("modelRule.provider")}
            <select data-testid="model-rule-provider" value={chosen} onChange={(e) => setProviderId(e.target.value)}>
              {(providers ?? []).map((p) => (
                <option key={p.provider.id} value={p.provider.id}>
                  {p.provider.name} ({p.provider.model})
                </option>
              ))}
            </select>
          </label>
          <label className="checkbox">
            <input type="checkbox" data-testid="model-rule-auto" checked={auto} onChange={(e) => setAuto(e.target.checked)} />
            {t("modelRule.auto")}
          </label>
        </div>
      )}
      <div className="rule-actions">
        <button
          type="button"
          data-testid="model-rule-save"
          disabled={chosen === ""}
          onClick={() => void save({ provider_id: chosen, auto_approve: auto })}
        >
          <Check size={14} aria-hidden /> {t("modelRule.save")}
        </button>
        {rule && (
          <button type="button" data-testid="model-rule-off" onClick={() => void save(null)}>
            {t("modelRule.off")}
          </button>
        )}
      </div>
    </section>
  );
}

/** A decision in words; one the UI does not know is shown as the record names it. */
function decisionLabel(decision: string): string {
  switch (decision) {
    case "accept":
    case "decline":
    case "cancel":
    case "open":
    case "accept_without_opening":
    case "open_failed":
    case "reply":
    case "reject":
    case "auto_reply":
    case "model_reply":
    case "auto_model_reply":
    case "tool_approved":
    case "tool_rejected":
    case "sign_in":
    case "cancel_sign_in":
    case "app_link_opened":
    case "app_link_declined":
    case "app_message_accepted":
    case "app_message_declined":
      return i18n.t(`requests:decision.${decision}`);
    default:
      return decision;
  }
}

function History({ server }: { server: ServerState }) {
  const { t } = useTranslation(["requests", "common"]);
  const { decisions, warnings, completed } = useServerRequests(server.id);
  return (
    <section className="requests-section" data-testid="requests-history">
      <h3>{t("history.title")}</h3>
      {decisions.length === 0 && warnings.length === 0 && (
        <EmptyState title={t("history.emptyTitle")} testId="requests-empty">
          <p className="muted">{t("history.empty")}</p>
          <p className="muted">{t("history.emptyHow")}</p>
        </EmptyState>
      )}
      {warnings.map((w, i) => (
        <div key={i} className="request-warning" data-testid="request-warning">
          <TriangleAlert size={14} aria-hidden /> {problemText(w.problem)}
        </div>
      ))}
      {decisions.length > 0 && (
        <table className="decisions">
          <thead>
            <tr>
              <th>{t("history.time")}</th>
              <th>{t("history.request")}</th>
              <th>{t("history.decision")}</th>
              <th>{t("history.about")}</th>
            </tr>
          </thead>
          <tbody>
            {decisions.map((d, i) => (
              <DecisionRow key={i} decision={d} completed={completed} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function DecisionRow({ decision: d, completed }: { decision: Decision; completed: string[] }) {
  const { t, i18n: i18next } = useTranslation(["requests", "common"]);
  const done = d.elicitation_id !== null && completed.includes(d.elicitation_id);
  const accepted = d.decision === "open" || d.decision === "accept_without_opening";
  return (
    <tr data-testid="decision-row" data-decision={d.decision} data-method={d.method}>
      <td>{new Date(d.wall_us / 1000).toLocaleTimeString(i18next.language)}</td>
      <td>
        <code>{d.method}</code>
        {d.request_id !== null && <span className="muted"> #{String(d.request_id)}</span>}
      </td>
      <td>{decisionLabel(d.decision)}</td>
      <td>
        <div className="decision-detail">
        {d.detail && <code>{d.detail}</code>}
        {d.elicitation_id !== null && accepted && (
          <span className={done ? "badge ok" : "badge"} data-testid="elicitation-state">
            {done ? t("history.completed") : t("history.waiting")}
          </span>
        )}
        </div>
      </td>
    </tr>
  );
}
