// The playground tab: a conversation with a configured model about this server (and, if the
// user ticks them, other connected servers). The model sees their model-visible tools; each
// call it makes is shown with its arguments before it runs (approve once, always for this
// tool, reject); its words stream in; each turn says its tokens and time.
import { Bot, Check, CheckCheck, Download, MessageSquarePlus, Save, X } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ChatSummary } from "../bindings/ChatSummary";
import type { TurnStats } from "../bindings/TurnStats";
import { showHistoryEntry } from "../actions/view";
import { ResultFindings } from "../check/ResultFindings";
import { ErrorBox } from "../common/ErrorBox";
import { ServerText } from "../common/ServerText";
import { playgroundIpc } from "../ipc";
import { defaultProvider, loadProviders, useProviders } from "../models/state";
import { useConnections, type ServerState } from "../state/connections";
import { Composer } from "./Composer";
import { approve, exportMarkdown, newChat, openChat, save, send, stop, useChat, type Item } from "./state";
import "../styles/models.css";

const ms = (us: number | null) => (us === null ? null : Math.round(us / 1000));

export function TurnStatsLine({ stats }: { stats: TurnStats }) {
  const { t } = useTranslation("playground");
  const dash = t("stats.unknown");
  return (
    <div className="chat-turn-stats muted" data-testid="turn-stats">
      {t("stats.line", {
        input: stats.usage.input ?? dash,
        output: stats.usage.output ?? dash,
        first: ms(stats.timing.first_token_us) ?? dash,
        total: ms(stats.timing.total_us),
        rounds: stats.rounds,
        model: stats.model,
      })}
      {stats.hit_round_limit && <span className="badge warning"> {t("stats.roundLimit")}</span>}
    </div>
  );
}

/** A call's entry in History (under Saved), when it reached a server in this run of the app. */
function HistoryLink({ serverId, historyId }: { serverId: string | null; historyId: string | null }) {
  const { t } = useTranslation("playground");
  if (serverId === null || historyId === null) return null;
  return (
    <button type="button" className="link-button small" data-testid="chat-tool-history" onClick={() => showHistoryEntry(serverId, historyId)}>
      {t("tool.inHistory")}
    </button>
  );
}

function ToolCard({ item, chatKey }: { item: Extract<Item, { kind: "tool" }>; chatKey: string }) {
  const { t } = useTranslation("playground");
  return (
    <div className="chat-tool-card" data-testid="chat-tool-call" data-tool={item.name} data-waiting={item.waiting || undefined}>
      <div className="playground-bar">
        <strong>{t("tool.title", { name: item.name })}</strong>
        {item.serverId && <span className="badge">{item.serverId}</span>}
        {item.approval && (
          <span className="badge" data-testid="chat-tool-approval">
            {t(`tool.approval.${item.approval}`)}
          </span>
        )}
      </div>
      <div className="block-label">{t("tool.arguments")}</div>
      <code className="mono" data-testid="chat-tool-args">
        {JSON.stringify(item.input)}
      </code>
      {item.waiting && item.changedSinceAllowed && (
        <p className="warning-box" role="alert" data-testid="chat-tool-changed">
          {t("tool.changedSinceAllowed")}
        </p>
      )}
      {item.waiting && (
        <div className="chat-tool-card-actions" role="group" aria-label={t("tool.ask")}>
          <span>{t("tool.ask")}</span>
          <button type="button" className="button button-primary" data-testid="chat-approve-once" onClick={() => void approve(chatKey, item.id, "once")}>
            <Check size={14} aria-hidden /> {t("tool.once")}
          </button>
          <button type="button" className="button" data-testid="chat-approve-always" onClick={() => void approve(chatKey, item.id, "always_this_tool")}>
            <CheckCheck size={14} aria-hidden /> {t("tool.always")}
          </button>
          <button type="button" className="button" data-testid="chat-reject" onClick={() => void approve(chatKey, item.id, "reject")}>
            <X size={14} aria-hidden /> {t("tool.reject")}
          </button>
        </div>
      )}
      {item.result && (
        <div data-testid="chat-tool-result" data-error={item.result.isError || undefined}>
          <div className="block-label">{item.result.isError ? t("tool.resultError") : t("tool.result")}</div>
          <ResultFindings findings={item.result.findings} />
          <pre className="code-block">
            <ServerText text={item.result.text} />
          </pre>
          <HistoryLink serverId={item.serverId} historyId={item.historyId} />
        </div>
      )}
    </div>
  );
}

function Transcript({ items, chatKey }: { items: Item[]; chatKey: string }) {
  const { t } = useTranslation("playground");
  return (
    <div className="playground-transcript" data-testid="chat-transcript" aria-live="polite">
      {items.map((item, index) => {
        switch (item.kind) {
          case "user":
            return (
              <div key={index} className="chat-message" data-role="user" data-testid="chat-user">
                <span className="role-badge role-user">{t("you")}</span> {item.text}
                {item.attached.map((a) => (
                  <span key={a} className="badge mono">
                    {a}
                  </span>
                ))}
              </div>
            );
          case "text":
            return (
              <div key={index} className="chat-message" data-role="assistant" data-testid="chat-assistant">
                {item.text}
              </div>
            );
          case "tool":
            return <ToolCard key={item.id} item={item} chatKey={chatKey} />;
          case "stats":
            return <TurnStatsLine key={index} stats={item.stats} />;
          case "error":
            return <ErrorBox key={index} message={item.message} />;
        }
      })}
    </div>
  );
}

export function PlaygroundView({ server }: { server: ServerState }) {
  const { t } = useTranslation("playground");
  const ids = useId();
  const chatKey = server.id;
  const chat = useChat(chatKey);
  const providers = useProviders();
  const others = useConnections((s) =>
    Object.values(s.servers)
      .filter((o) => o.id !== server.id && o.status.state === "ready")
      .map((o) => o.id)
      .join("\n"),
  );
  const [providerId, setProviderId] = useState<string>("");
  const [extra, setExtra] = useState<string[]>([]);
  const [saved, setSaved] = useState<ChatSummary[]>([]);
  useEffect(() => {
    if (providers === null) void loadProviders();
  }, [providers]);
  // The saved conversations about this server, to reopen one (refreshed after each turn).
  const turns = chat.conversation?.turns.length ?? 0;
  useEffect(() => {
    playgroundIpc.chatList().then(
      (list) => setSaved(Array.isArray(list) ? list.filter((c) => c.server_ids.includes(server.id)) : []),
      () => setSaved([]),
    );
  }, [server.id, turns]);
  const chosen = providerId || defaultProvider(providers)?.provider.id || "";
  const ready = server.status.state === "ready";
  const start = () => void newChat(chatKey, [server.id, ...extra], chosen || null);

  if (providers !== null && providers.length === 0) {
    return (
      <div className="playground" data-testid="playground">
        <p className="muted" data-testid="playground-no-model">
          <Bot size={14} aria-hidden /> {t("noModel")}
        </p>
      </div>
    );
  }

  return (
    <div className="playground" data-testid="playground">
      <div className="playground-bar">
        <label htmlFor={`${ids}-provider`}>{t("model")}</label>
        <select id={`${ids}-provider`} data-testid="chat-provider" value={chosen} onChange={(e) => setProviderId(e.target.value)}>
          {(providers ?? []).map((p) => (
            <option key={p.provider.id} value={p.provider.id}>
              {p.provider.name} ({p.provider.model})
            </option>
          ))}
        </select>
        {others !== "" &&
          others.split("\n").map((id) => (
            <label key={id} className="checkbox">
              <input
                type="checkbox"
                data-testid={`chat-server-${id}`}
                checked={extra.includes(id)}
                onChange={(e) => setExtra(e.target.checked ? [...extra, id] : extra.filter((x) => x !== id))}
              />
              {t("alsoServer", { server: id })}
            </label>
          ))}
        {saved.length > 0 && (
          <select
            aria-label={t("open")}
            data-testid="chat-open"
            value=""
            disabled={chat.busy}
            onChange={(e) => e.target.value && void openChat(chatKey, e.target.value)}
          >
            <option value="">{t("open")}</option>
            {saved.map((c) => (
              <option key={c.id} value={c.id}>
                {t("savedChat", { title: c.title || c.id, count: c.turns })}
              </option>
            ))}
          </select>
        )}
        <button type="button" className="button" data-testid="chat-new" disabled={!ready || chosen === ""} onClick={start}>
          <MessageSquarePlus size={14} aria-hidden /> {t("new")}
        </button>
        {chat.conversation && (
          <>
            <span className="muted" data-testid="chat-servers">
              {t("about", { servers: chat.conversation.server_ids.join(", ") })}
            </span>
            <button type="button" className="button" data-testid="chat-save" disabled={chat.busy} onClick={() => void save(chatKey)}>
              <Save size={14} aria-hidden /> {t("save")}
            </button>
            <button type="button" className="button" data-testid="chat-export" disabled={chat.busy} onClick={() => void exportMarkdown(chatKey)}>
              <Download size={14} aria-hidden /> {t("export")}
            </button>
          </>
        )}
        {chat.exported && (
          <span className="muted" data-testid="chat-exported">
            {t("savedTo", { path: chat.exported })}
          </span>
        )}
      </div>
      {chat.error && <ErrorBox message={chat.error} />}
      {chat.conversation ? (
        <Transcript items={chat.items} chatKey={chatKey} />
      ) : (
        <p className="muted" data-testid="playground-start">
          {ready ? t("start") : t("connectFirst")}
        </p>
      )}
      {chat.conversation && (
        <Composer
          serverId={server.id}
          busy={chat.busy}
          onSend={(text, attachments) => void send(chatKey, text, attachments)}
          onStop={() => void stop(chatKey)}
        />
      )}
    </div>
  );
}
