import { BlockView } from "../content/BlockView";
import { parsePromptResult } from "../content/blocks";
import { ErrorBox } from "../common/ErrorBox";
import type { RequestState } from "../store";

/** The messages a prompt expanded to. */
export function PromptMessages({ get }: { get: RequestState }) {
  if (get.status === "running") return <div className="result-pending">Getting the prompt…</div>;
  if (get.status === "error") {
    return (
      <div data-testid="prompt-messages" data-is-error="true">
        <ErrorBox title="Could not get the prompt" message={get.error ?? "unknown error"} />
      </div>
    );
  }
  const { description, messages } = parsePromptResult(get.result);
  return (
    <section className="prompt-messages" data-testid="prompt-messages" data-is-error="false">
      {description && <p className="description">{description}</p>}
      {messages.length === 0 && <p className="muted">The prompt has no messages.</p>}
      {messages.map((m, index) => (
        <div key={index} className="prompt-message" data-role={m.role}>
          <span className={`role-badge role-${m.role}`}>{m.role}</span>
          <BlockView block={m.block} />
        </div>
      ))}
    </section>
  );
}
