import { BlockView } from "../content/BlockView";
import { parsePromptResult, type Block } from "../content/blocks";
import { ErrorBox } from "../common/ErrorBox";
import type { RequestState } from "../state/calls";

const CONTENT_LABELS: Record<Block["type"], string> = {
  text: "text",
  image: "image",
  audio: "audio",
  resource_link: "resource link",
  resource: "embedded resource",
  unknown: "unreadable content",
};

/** The messages a prompt expanded to: each with its role and its content, whatever its type. */
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
        <div
          key={index}
          className="prompt-message"
          data-testid="prompt-message"
          data-role={m.role}
          data-content-type={m.block.type}
        >
          <div className="prompt-message-head">
            <span className={`role-badge role-${m.role}`}>{m.role}</span>
            {/* An embedded resource's block names itself. */}
            {m.block.type !== "resource" && <span className="muted small">{CONTENT_LABELS[m.block.type]}</span>}
          </div>
          <BlockView block={m.block} />
        </div>
      ))}
    </section>
  );
}
