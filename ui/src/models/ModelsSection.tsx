// Settings → Models: the model providers that draft sampling answers and talk in the
// playground. A key is typed into a masked field and sent once; the UI never reads it back
// (only whether a provider has one).
import { Check, KeyRound, Pencil, Plus, Trash2, Zap } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ModelProbe } from "../bindings/ModelProbe";
import type { Provider } from "../bindings/Provider";
import type { ProviderKind } from "../bindings/ProviderKind";
import type { ProviderView } from "../bindings/ProviderView";
import { ErrorBox } from "../common/ErrorBox";
import { errorMessage, modelsIpc } from "../ipc";
import { setProviders } from "./state";
import "../styles/models.css";

/** Where each kind usually lives, as a placeholder (the README lists the local runtimes). */
const BASE_URL_EXAMPLE: Record<ProviderKind, string> = {
  open_ai_compatible: "http://localhost:11434/v1",
  anthropic: "https://api.anthropic.com",
};

/** A new provider's id: its name as a slug, and a few random letters so two never collide. */
export function newProviderId(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 24);
  const suffix = Math.random().toString(36).slice(2, 8);
  return `${slug || "model"}-${suffix}`;
}

function emptyProvider(): Provider {
  return { id: "", name: "", kind: "open_ai_compatible", base_url: "", model: "", max_tokens: null, default: false };
}

function ProviderForm({
  initial,
  hasKey,
  onSaved,
  onCancel,
}: {
  initial: Provider;
  hasKey: boolean;
  onSaved: (views: ProviderView[]) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation(["models", "common"]);
  const ids = useId();
  const [p, setP] = useState<Provider>(initial);
  const [maxTokens, setMaxTokens] = useState(initial.max_tokens === null ? "" : String(initial.max_tokens));
  const [key, setKey] = useState("");
  const [clearKey, setClearKey] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    const tokens = maxTokens.trim() === "" ? null : Number(maxTokens);
    if (tokens !== null && (!Number.isInteger(tokens) || tokens <= 0)) {
      setError(t("form.badMaxTokens"));
      return;
    }
    const provider = { ...p, id: p.id || newProviderId(p.name), max_tokens: tokens };
    const change = clearKey ? { action: "clear" as const } : key !== "" ? { action: "set" as const, key } : { action: "keep" as const };
    setBusy(true);
    try {
      const views = await modelsIpc.modelsSave(provider, change);
      // The key leaves the page as soon as it is kept.
      setKey("");
      onSaved(views);
    } catch (e) {
      setError(errorMessage(e));
    }
    setBusy(false);
  };
  const field = (name: keyof Provider) => `${ids}-${name}`;
  return (
    <form
      className="model-form"
      data-testid="model-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <label className="field" htmlFor={field("name")}>
        <span className="field-label">{t("form.name")}</span>
        <input id={field("name")} data-testid="model-name" value={p.name} onChange={(e) => setP({ ...p, name: e.target.value })} />
      </label>
      <label className="field" htmlFor={field("kind")}>
        <span className="field-label">{t("form.kind")}</span>
        <select
          id={field("kind")}
          data-testid="model-kind"
          value={p.kind}
          onChange={(e) => setP({ ...p, kind: e.target.value as ProviderKind })}
        >
          <option value="open_ai_compatible">{t("kind.open_ai_compatible")}</option>
          <option value="anthropic">{t("kind.anthropic")}</option>
        </select>
      </label>
      <label className="field" htmlFor={field("base_url")}>
        <span className="field-label">{t("form.baseUrl")}</span>
        <input
          id={field("base_url")}
          data-testid="model-base-url"
          className="mono"
          spellCheck={false}
          placeholder={BASE_URL_EXAMPLE[p.kind]}
          value={p.base_url}
          onChange={(e) => setP({ ...p, base_url: e.target.value })}
        />
      </label>
      <label className="field" htmlFor={field("model")}>
        <span className="field-label">{t("form.model")}</span>
        <input
          id={field("model")}
          data-testid="model-model"
          className="mono"
          spellCheck={false}
          value={p.model}
          onChange={(e) => setP({ ...p, model: e.target.value })}
        />
      </label>
      <label className="field" htmlFor={field("max_tokens")}>
        <span className="field-label">{t("form.maxTokens")}</span>
        <input
          id={field("max_tokens")}
          data-testid="model-max-tokens"
          type="number"
          min={1}
          placeholder={t("form.maxTokensDefault")}
          value={maxTokens}
          onChange={(e) => setMaxTokens(e.target.value)}
        />
      </label>
      <label className="field" htmlFor={`${ids}-key`}>
        <span className="field-label">{t("form.key")}</span>
        <input
          id={`${ids}-key`}
          data-testid="model-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          disabled={clearKey}
          placeholder={hasKey ? t("form.keyStored") : t("form.keyNone")}
          value={key}
          onChange={(e) => setKey(e.target.value)}
        />
        <span className="hint">{t("form.keyHint")}</span>
      </label>
      {hasKey && (
        <label className="checkbox">
          <input type="checkbox" data-testid="model-clear-key" checked={clearKey} onChange={(e) => setClearKey(e.target.checked)} />
          {t("form.clearKey")}
        </label>
      )}
      <label className="checkbox">
        <input type="checkbox" data-testid="model-default" checked={p.default} onChange={(e) => setP({ ...p, default: e.target.checked })} />
        {t("form.default")}
      </label>
      {error && <ErrorBox message={error} />}
      <div className="model-form-actions">
        <button type="button" className="button" onClick={onCancel}>
          {t("common:cancel")}
        </button>
        <button type="submit" className="button button-primary" data-testid="model-save" disabled={busy}>
          <Check size={14} aria-hidden /> {t("form.save")}
        </button>
      </div>
    </form>
  );
}

function ProbeLine({ probe }: { probe: ModelProbe }) {
  const { t } = useTranslation("models");
  const ms = Math.round(probe.timing.total_us / 1000);
  return (
    <span className="model-probe ok" data-testid="model-probe">
      {t("test.ok", { model: probe.model, ms })}
    </span>
  );
}

export function ModelsSection() {
  const { t } = useTranslation(["models", "common"]);
  const [views, setViews] = useState<ProviderView[] | null>(null);
  const [editing, setEditing] = useState<{ provider: Provider; hasKey: boolean } | null>(null);
  const [probes, setProbes] = useState<Record<string, ModelProbe | string | "testing">>({});
  const [error, setError] = useState<string | null>(null);
  const show = (next: ProviderView[]) => {
    // A host that answers nothing (a test's IPC mock) lists no models.
    const list = Array.isArray(next) ? next : [];
    setViews(list);
    setProviders(list);
  };
  useEffect(() => {
    void modelsIpc.modelsList().then(show, (e: unknown) => setError(errorMessage(e)));
  }, []);
  const test = async (id: string) => {
    setProbes((p) => ({ ...p, [id]: "testing" }));
    try {
      const probe = await modelsIpc.modelsTest(id);
      setProbes((p) => ({ ...p, [id]: probe }));
    } catch (e) {
      setProbes((p) => ({ ...p, [id]: errorMessage(e) }));
    }
  };
  const remove = async (id: string) => {
    try {
      show(await modelsIpc.modelsRemove(id));
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <section className="settings-section" data-testid="models-section">
      <h3>{t("title")}</h3>
      <p className="hint">{t("hint")}</p>
      {error && <ErrorBox message={error} />}
      {views !== null && views.length === 0 && editing === null && (
        <p className="muted" data-testid="models-empty">
          {t("empty")}
        </p>
      )}
      <ul className="model-list">
        {(views ?? []).map(({ provider, has_key }) => {
          const probe = probes[provider.id];
          return (
            <li key={provider.id} className="model-item" data-testid="model-item" data-provider-id={provider.id}>
              <div className="model-item-head">
                <strong>{provider.name}</strong>
                <span className="badge">{t(`kind.${provider.kind}`)}</span>
                <span className="mono">{provider.model}</span>
                {provider.default && <span className="badge">{t("default")}</span>}
                {has_key && (
                  <span className="badge" data-testid="model-has-key" title={t("keyStoredTitle")}>
                    <KeyRound size={12} aria-hidden /> {t("keyStored")}
                  </span>
                )}
              </div>
              <div className="mono muted small">{provider.base_url}</div>
              <div className="model-item-actions">
                <button type="button" className="button" data-testid="model-test" onClick={() => void test(provider.id)}>
                  <Zap size={14} aria-hidden /> {t("test.button")}
                </button>
                <button
                  type="button"
                  className="button"
                  data-testid="model-edit"
                  onClick={() => setEditing({ provider, hasKey: has_key })}
                >
                  <Pencil size={14} aria-hidden /> {t("common:edit")}
                </button>
                <button type="button" className="button" data-testid="model-remove" onClick={() => void remove(provider.id)}>
                  <Trash2 size={14} aria-hidden /> {t("common:remove")}
                </button>
                {probe === "testing" && <span className="muted">{t("test.running")}</span>}
                {probe !== undefined && probe !== "testing" && typeof probe !== "string" && <ProbeLine probe={probe} />}
                {typeof probe === "string" && probe !== "testing" && (
                  <span className="model-probe failed" role="alert" data-testid="model-probe-error">
                    {probe}
                  </span>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {editing ? (
        <ProviderForm
          key={editing.provider.id || "new"}
          initial={editing.provider}
          hasKey={editing.hasKey}
          onCancel={() => setEditing(null)}
          onSaved={(next) => {
            show(next);
            setEditing(null);
          }}
        />
      ) : (
        <button
          type="button"
          className="button"
          data-testid="model-add"
          onClick={() => setEditing({ provider: { ...emptyProvider(), default: (views ?? []).length === 0 }, hasKey: false })}
        >
          <Plus size={14} aria-hidden /> {t("add")}
        </button>
      )}
    </section>
  );
}
