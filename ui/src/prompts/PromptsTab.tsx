import { Play } from "lucide-react";
import { useMemo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { loadList } from "../actions/lists";
import { selectPrompt, setPromptArg } from "../actions/view";
import { EmptyListState } from "../common/EmptyListState";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { ListGate } from "../common/ListGate";
import { ItemList } from "../common/ItemList";
import { ListFilter } from "../common/ListFilter";
import { ListHeader } from "../common/ListHeader";
import { searchText, useFilteredItems } from "../common/listFilter";
import { useLists } from "../common/useLists";
import { resourcesIpc, type ListKind } from "../ipc";
import { CompletionInput } from "../completion/CompletionInput";
import { offersCompletions } from "../resources/TemplateForm";
import "../styles/resources.css";
import { PromptMessages } from "./PromptMessages";
import { SaveCallButton } from "../saved/SaveCallButton";
import { getStartedAt, markGetStarted, promptArguments, promptInfo, type PromptInfo } from "./prompts";
import { getPrompt } from "../state/calls";
import type { ServerState } from "../state/connections";
import { saveCallDialog } from "../state/saved";
import { useServerCalls } from "../state/calls";
import { useServerLists } from "../state/lists";
import { ServerText } from "../common/ServerText";

const KINDS: readonly ListKind[] = ["prompts"];

export function PromptsTab({ server }: { server: ServerState }) {
  useLists(server, KINDS);
  return (
    <ListGate server={server} kind="prompts" noun="prompts">
      <PromptsView server={server} />
    </ListGate>
  );
}

function PromptsView({ server }: { server: ServerState }) {
  const { t } = useTranslation(["prompts", "common"]);
  const list = useServerLists(server.id).prompts;
  const prompts = useMemo(
    () => list.items.map(promptInfo).filter((p): p is PromptInfo => p !== null),
    [list.items],
  );
  const selected = prompts.find((p) => p.name === server.prompts.selected) ?? null;
  const [query, setQuery] = useState("");
  const shown = useFilteredItems(prompts, promptText, query);
  const refresh = () => void loadList(server.id, "prompts");
  return (
    <div className="split">
      <div className="split-list">
        <ListHeader title={t("tab.title")} list={list} onRefresh={refresh} />
        {list.error && <ErrorBox title={t("tab.listError")} message={list.error} />}
        {list.status === "loading" && prompts.length === 0 && <EmptyState>{t("common:loading")}</EmptyState>}
        {list.status === "loaded" && prompts.length === 0 && (
          <EmptyListState title={t("tab.emptyTitle")} body={t("tab.empty")} testId="prompts-empty" onRefresh={refresh} />
        )}
        {prompts.length > 0 && (
          <ListFilter
            value={query}
            onChange={setQuery}
            shown={shown.length}
            total={prompts.length}
            placeholder={t("tab.filter")}
            testId="prompts-filter"
          />
        )}
        <ItemList
          items={shown}
          keyOf={(p) => p.name}
          label={t("tab.title")}
          selected={selected?.name}
          render={(p) => (
            <button
              type="button"
              className={`item${p.name === selected?.name ? " selected" : ""}`}
              data-testid="prompt-item"
              data-prompt-name={p.name}
              aria-current={p.name === selected?.name ? "true" : undefined}
              onClick={() => selectPrompt(server.id, p.name)}
            >
              <span className="item-name mono">
                <ServerText text={p.name} />
              </span>
              {(p.title ?? p.description) && (
                <span className="item-sub">
                  <ServerText text={p.title ?? p.description ?? ""} />
                </span>
              )}
            </button>
          )}
        />
      </div>
      <div className="split-detail scroll-area">
        {selected ? (
          <PromptDetail key={selected.name} server={server} prompt={selected} />
        ) : (
          prompts.length > 0 && (
            <EmptyState title={t("tab.noSelectionTitle")} testId="no-prompt-selected">
              {t("tab.noSelection")}
            </EmptyState>
          )
        )}
      </div>
    </div>
  );
}

/** What the filter box matches in a prompt: its name, title and description. */
const promptText = (prompt: PromptInfo) => searchText(prompt.name, prompt.title, prompt.description);

function PromptDetail({ server, prompt }: { server: ServerState; prompt: PromptInfo }) {
  const { t } = useTranslation("prompts");
  const values = server.prompts.args[prompt.name];
  const get = useServerCalls(server.id).gets[prompt.name];
  const [missing, setMissing] = useState<string[]>([]);
  const completes = offersCompletions(server);
  const others = (name: string): Record<string, string> => {
    const context: Record<string, string> = {};
    for (const [k, v] of Object.entries(values ?? {})) if (k !== name && v !== "") context[k] = v;
    return context;
  };
  const fetchFor = (name: string) => (value: string) => {
    const context = others(name);
    return resourcesIpc.complete(
      server.id,
      { type: "ref/prompt", name: prompt.name },
      name,
      value,
      Object.keys(context).length > 0 ? context : null,
    );
  };
  const contextKey = (name: string) => JSON.stringify(Object.entries(others(name)).sort());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { args, missing: absent } = promptArguments(prompt, values);
    setMissing(absent);
    if (absent.length === 0) {
      markGetStarted(server.id, prompt.name);
      void getPrompt(server.id, prompt.name, args);
    }
  };

  return (
    <div className="detail">
      <h2 className="detail-title">
        <span className="mono">
          <ServerText text={prompt.name} />
        </span>
        {prompt.title && (
          <span className="detail-subtitle">
            <ServerText text={prompt.title} />
          </span>
        )}
      </h2>
      {prompt.description && (
        <p className="description">
          <ServerText text={prompt.description} />
        </p>
      )}
      <form className="prompt-form" onSubmit={submit}>
        {prompt.arguments.length === 0 && <p className="muted">{t("detail.noArguments")}</p>}
        {prompt.arguments.map((arg) => (
          <label key={arg.name} className="field">
            <span className="field-label">
              <span className="mono">{arg.name}</span>
              {arg.required && (
                <span className="required" title={t("detail.required")}>
                  *
                </span>
              )}
            </span>
            <CompletionInput
              testId="prompt-arg"
              name={arg.name}
              value={values?.[arg.name] ?? ""}
              required={arg.required}
              onChange={(value) => setPromptArg(server.id, prompt.name, arg.name, value)}
              fetch={completes ? fetchFor(arg.name) : null}
              completionKey={contextKey(arg.name)}
            />
            {arg.description && (
              <span className="field-hint">
                <ServerText text={arg.description} />
              </span>
            )}
          </label>
        ))}
        {missing.length > 0 && <ErrorBox message={t("detail.missing", { names: missing.join(", ") })} />}
        <div className="form-actions">
          <button
            type="submit"
            className="button button-primary"
            data-testid="get-prompt-button"
            disabled={get?.status === "running"}
          >
            <Play size={14} aria-hidden />
            {get?.status === "running" ? t("detail.getting") : t("detail.get")}
          </button>
          <SaveCallButton onClick={() => saveCallDialog("prompt", prompt.name, { ...values }, server.id)} />
        </div>
      </form>
      {get ? (
        <PromptMessages get={get} startedAt={getStartedAt(server.id, prompt.name)} />
      ) : (
        <EmptyState title={t("detail.noMessagesTitle")} testId="no-prompt-messages">
          {t("detail.noMessages")}
        </EmptyState>
      )}
    </div>
  );
}
