// What the app answers on the user's behalf for one server (its roots, an optional sampling
// reply rule) and the history of every decision about the server's requests this session.
import { Bot, Check, FolderOpen, Plus, Trash2, TriangleAlert } from "lucide-react";
import { useEffect, useState } from "react";
import { loadHostSettings, saveHostSettings } from "../actions";
import type { Decision } from "../bindings/Decision";
import type { HostSettings } from "../bindings/HostSettings";
import { ErrorBox } from "../common/ErrorBox";
import { errorMessage, ipc } from "../ipc";
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
        </>
      )}
      <History server={server} />
    </div>
  );
}

function RootsEditor({ serverId, settings }: { serverId: string; settings: HostSettings }) {
  const [path, setPath] = useState("");
  const [error, setError] = useState<string | null>(null);
  const save = (roots: HostSettings["roots"]) => saveHostSettings(serverId, { ...settings, roots });
  const add = async (pick: () => Promise<HostSettings["roots"][number] | null>) => {
    try {
      const root = await pick();
      if (!root) return;
      setError(null);
      if (settings.roots.some((r) => r.uri === root.uri)) {
        setError(`${root.uri} is already a root.`);
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
      <h3>Roots</h3>
      <p className="hint">
        The folders this server may work in, sent as <code>file://</code> URIs when it asks{" "}
        <code>roots/list</code>. A connected server is told when the list changes.
      </p>
      {settings.roots.length === 0 ? (
        <p className="muted" data-testid="roots-empty">
          No roots: the server gets an empty list.
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
                aria-label={`Remove ${root.uri}`}
                title="Remove"
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
          placeholder="/path/to/a/folder"
          aria-label="Folder path"
          data-testid="root-path-input"
          onChange={(e) => setPath(e.target.value)}
        />
        <button type="submit" data-testid="root-add" disabled={path.trim() === ""}>
          <Plus size={14} aria-hidden /> Add
        </button>
        <button type="button" data-testid="root-browse" onClick={() => void add(() => ipc.pickFolder())}>
          <FolderOpen size={14} aria-hidden /> Browse…
        </button>
      </form>
      {error && <ErrorBox message={error} />}
    </section>
  );
}

function SamplingRuleEditor({ serverId, settings }: { serverId: string; settings: HostSettings }) {
  const rule = settings.sampling_rule;
  const [text, setText] = useState(rule?.text ?? "");
  const [model, setModel] = useState(rule?.model ?? "periscope-rule");
  const on = rule !== null;
  const save = (next: HostSettings["sampling_rule"]) =>
    saveHostSettings(serverId, { ...settings, sampling_rule: next });
  return (
    <section className="requests-section" data-testid="sampling-rule">
      <h3>
        <Bot size={16} aria-hidden /> Sampling reply rule
      </h3>
      <p className="hint">
        For repeated testing: answer every <code>sampling/createMessage</code> from this server with a
        fixed text, without asking. Off by default.
      </p>
      {on && (
        <div className="rule-on-banner" data-testid="sampling-rule-on">
          <TriangleAlert size={14} aria-hidden /> Rule on: sampling requests are answered with “{rule.text}”
          as model {rule.model}, without asking you.
        </div>
      )}
      <div className="rule-fields">
        <label>
          Reply text
          <textarea
            value={text}
            rows={2}
            data-testid="sampling-rule-text"
            onChange={(e) => setText(e.target.value)}
          />
        </label>
        <label>
          Model name
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
          <Check size={14} aria-hidden /> {on ? "Update rule" : "Turn rule on"}
        </button>
        {on && (
          <button type="button" data-testid="sampling-rule-off" onClick={() => void save(null)}>
            Turn off
          </button>
        )}
      </div>
    </section>
  );
}

const DECISION_LABELS: Record<string, string> = {
  accept: "accepted",
  decline: "declined",
  cancel: "cancelled",
  open: "accepted, opened in browser",
  accept_without_opening: "accepted, not opened",
  open_failed: "accepted, browser failed to open",
  reply: "replied",
  reject: "rejected",
  auto_reply: "answered by the reply rule",
};

function History({ server }: { server: ServerState }) {
  const { decisions, warnings, completed } = useServerRequests(server.id);
  return (
    <section className="requests-section" data-testid="requests-history">
      <h3>This session</h3>
      {decisions.length === 0 && warnings.length === 0 && (
        <p className="muted">No requests from the server yet. Elicitation, sampling and URL consent decisions appear here.</p>
      )}
      {warnings.map((w, i) => (
        <div key={i} className="request-warning" data-testid="request-warning">
          <TriangleAlert size={14} aria-hidden /> {w.message}
        </div>
      ))}
      {decisions.length > 0 && (
        <table className="decisions">
          <thead>
            <tr>
              <th>Time</th>
              <th>Request</th>
              <th>Decision</th>
              <th>About</th>
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
  const done = d.elicitation_id !== null && completed.includes(d.elicitation_id);
  const accepted = d.decision === "open" || d.decision === "accept_without_opening";
  return (
    <tr data-testid="decision-row" data-decision={d.decision} data-method={d.method}>
      <td>{new Date(d.wall_us / 1000).toLocaleTimeString()}</td>
      <td>
        <code>{d.method}</code>
        {d.request_id !== null && <span className="muted"> #{String(d.request_id)}</span>}
      </td>
      <td>{DECISION_LABELS[d.decision] ?? d.decision}</td>
      <td>
        <div className="decision-detail">
        {d.detail && <code>{d.detail}</code>}
        {d.elicitation_id !== null && accepted && (
          <span className={done ? "badge ok" : "badge"} data-testid="elicitation-state">
            {done ? "completed by the server" : "waiting for the server to complete"}
          </span>
        )}
        </div>
      </td>
    </tr>
  );
}
