// "Draft with <model>" in the sampling panel: a configured model answers the server's request
// as a draft that streams into the editable reply; the user still approves or rejects it. The
// provider chosen (and why) is shown beside the request's model preferences, and the server's
// "approve automatically" rule is shown where it applies.
import { Sparkles, TriangleAlert } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { loadHostSettings } from "../actions/asks";
import type { DraftReason } from "../bindings/DraftReason";
import type { Provider } from "../bindings/Provider";
import type { Draft } from "../bindings/Draft";
import { ErrorBox } from "../common/ErrorBox";
import { errorMessage, modelsIpc } from "../ipc";
import { defaultProvider, loadProviders, useProviders } from "../models/state";
import { useServerRequests } from "../state/asks";
import "../styles/models.css";

function ReasonText({ reason }: { reason: DraftReason }) {
  const { t } = useTranslation("answering");
  if (reason.by === "server_rule") return <>{t("draft.reason.serverRule")}</>;
  switch (reason.pick.by) {
    case "hint":
      return <>{t("draft.reason.hint", { hint: reason.pick.hint })}</>;
    case "default":
      return <>{t("draft.reason.default")}</>;
    case "first":
      return <>{t("draft.reason.first")}</>;
  }
}

export function DraftBar({
  askId,
  serverId,
  onStart,
  onText,
  onDone,
}: {
  askId: number;
  serverId: string;
  onStart: () => void;
  onText: (piece: string) => void;
  /** The finished draft: the engine's reading of it for the reply form, and the result as made. */
  onDone: (draft: Draft) => void;
}) {
  const { t } = useTranslation("answering");
  const providers = useProviders();
  const { settings } = useServerRequests(serverId);
  const [chosen, setChosen] = useState<{ provider: Provider; reason: DraftReason } | null>(null);
  const [state, setState] = useState<"idle" | "drafting" | "done">("idle");
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (providers === null) void loadProviders();
  }, [providers]);
  useEffect(() => {
    if (settings === null) void loadHostSettings(serverId);
  }, [serverId, settings]);
  if (providers === null || providers.length === 0) return null;
  const rule = settings?.sampling_model ?? null;
  const ruled = rule ? providers.find((p) => p.provider.id === rule.provider_id) : undefined;
  const shown = chosen?.provider ?? ruled?.provider ?? defaultProvider(providers)?.provider;
  const draft = async () => {
    setState("drafting");
    setError(null);
    onStart();
    try {
      const done = await modelsIpc.samplingDraft(askId, (event) => {
        if (event.kind === "chosen") setChosen({ provider: event.provider, reason: event.reason });
        if (event.kind === "text") onText(event.text);
      });
      setChosen({ provider: done.provider, reason: done.reason });
      onDone(done);
      setState("done");
    } catch (e) {
      setError(errorMessage(e));
      setState("idle");
    }
  };
  return (
    <div className="section" data-testid="sampling-draft">
      {rule && (
        <div className="rule-on-banner" data-testid="sampling-model-rule">
          <TriangleAlert size={14} aria-hidden />{" "}
          {rule.auto_approve
            ? t("draft.ruleAuto", { name: ruled?.provider.name ?? rule.provider_id })
            : t("draft.ruleDraft", { name: ruled?.provider.name ?? rule.provider_id })}
        </div>
      )}
      <div className="sampling-draft-bar">
        <button
          type="button"
          className="button"
          data-testid="sampling-draft-button"
          disabled={state === "drafting"}
          onClick={() => void draft()}
        >
          <Sparkles size={14} aria-hidden />{" "}
          {state === "done" ? t("draft.again", { name: shown?.name ?? "" }) : t("draft.button", { name: shown?.name ?? "" })}
        </button>
        {state === "drafting" && <span className="muted">{t("draft.drafting")}</span>}
        {chosen && (
          <span className="muted" data-testid="sampling-draft-chosen">
            {t("draft.chosen", { name: chosen.provider.name, model: chosen.provider.model })} <ReasonText reason={chosen.reason} />
          </span>
        )}
        {state === "done" && (
          <span className="muted" data-testid="sampling-draft-done">
            {t("draft.done")}
          </span>
        )}
      </div>
      {error && <ErrorBox message={error} />}
    </div>
  );
}
