import { Loader2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { BlockView } from "../content/BlockView";
import type { PromptResultView } from "../bindings/PromptResultView";
import { ErrorBox } from "../common/ErrorBox";
import type { RequestState } from "../state/calls";
import { formatElapsed, useElapsed } from "../tools/ToolResult";

/**
 * The messages a prompt expanded to: each with its role and its content, whatever its type.
 * While the get runs: a spinner and the time since it was sent (`startedAt`, else since shown).
 */
export function PromptMessages({ get, startedAt }: { get: RequestState<PromptResultView>; startedAt?: number }) {
  const { t } = useTranslation("prompts");
  if (get.status === "running") return <Pending startedAt={startedAt} />;
  if (get.status === "error") {
    return (
      <div data-testid="prompt-messages" data-is-error="true">
        <ErrorBox title={t("messages.error")} message={get.error ?? t("messages.unknownError")} />
      </div>
    );
  }
  const description = get.result?.description ?? null;
  const messages = get.result?.messages ?? [];
  return (
    <section className="prompt-messages" data-testid="prompt-messages" data-is-error="false">
      {description && <p className="description">{description}</p>}
      {messages.length === 0 && <p className="muted">{t("messages.none")}</p>}
      {messages.map((m, index) => (
        <div
          key={index}
          className="prompt-message"
          data-testid="prompt-message"
          data-role={m.role}
          data-content-type={m.content.type}
        >
          <div className="prompt-message-head">
            <span className={`role-badge role-${m.role}`}>{m.role}</span>
            {/* An embedded resource's block names itself. */}
            {m.content.type !== "resource" && (
              <span className="muted small">{t(`messages.content.${m.content.type}`)}</span>
            )}
          </div>
          <BlockView block={m.content} />
        </div>
      ))}
    </section>
  );
}

function Pending({ startedAt }: { startedAt?: number }) {
  const { t } = useTranslation("prompts");
  const elapsed = useElapsed(startedAt);
  return (
    <div className="result-pending result-pending-spin" data-testid="prompt-pending" role="status">
      <Loader2 size={14} className="spin" aria-hidden />
      {t("messages.getting")}
      <span className="muted" data-testid="prompt-elapsed">
        {formatElapsed(elapsed)}
      </span>
    </div>
  );
}
