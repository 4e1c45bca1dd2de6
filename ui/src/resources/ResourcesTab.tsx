import { Bell, BellOff, BookOpen, Loader2, RefreshCw } from "lucide-react";
import { useMemo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { loadList } from "../actions/lists";
import { selectResource, setResourceUriInput } from "../actions/view";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { ListGate } from "../common/ListGate";
import { ListFilter } from "../common/ListFilter";
import { ListHeader } from "../common/ListHeader";
import { searchText, useFilteredItems } from "../common/listFilter";
import { useLists } from "../common/useLists";
import type { ListKind } from "../ipc";
import "../styles/resources.css";
import { loadAll, loadMore } from "./paging";
import { Pager } from "./Pager";
import { ResourceContents } from "./ResourceContents";
import { clockTime, ResourceList } from "./ResourceList";
import { resourceInfo, templateInfo, type ResourceInfo, type TemplateInfo } from "./resources";
import { canSubscribe, isSubscribed, readFresh, setSubscription } from "./subscriptions";
import { TemplateForm } from "./TemplateForm";
import { SaveCallButton } from "../saved/SaveCallButton";
import type { ServerState } from "../state/connections";
import { saveCallDialog } from "../state/saved";
import { useServerCalls } from "../state/calls";
import { useServerLists } from "../state/lists";

const KINDS: readonly ListKind[] = ["resources", "resource_templates"];
const NO_UPDATES = {};
const NONE: readonly string[] = [];

export function ResourcesTab({ server }: { server: ServerState }) {
  useLists(server, KINDS);
  return (
    <ListGate server={server} kind="resources">
      <ResourcesView server={server} />
    </ListGate>
  );
}

/** What the filter box matches in a resource: its name, title, URI and description. */
const resourceText = (r: ResourceInfo) => searchText(r.name, r.title, r.uri, r.description);
const templateText = (t: TemplateInfo) => searchText(t.name, t.title, t.uriTemplate, t.description);

function ResourcesView({ server }: { server: ServerState }) {
  const { t } = useTranslation("resources");
  const lists = useServerLists(server.id);
  const list = lists.resources;
  const templateList = lists.resource_templates;
  const resources = useMemo(
    () => list.items.map(resourceInfo).filter((r): r is ResourceInfo => r !== null),
    [list.items],
  );
  const templates = useMemo(
    () => templateList.items.map(templateInfo).filter((t): t is TemplateInfo => t !== null),
    [templateList.items],
  );
  const [query, setQuery] = useState("");
  const shownResources = useFilteredItems(resources, resourceText, query);
  const shownTemplates = useFilteredItems(templates, templateText, query);
  const { selected, uriInput } = server.resources;
  const reads = useServerCalls(server.id).reads;
  const read = selected === null ? undefined : reads[selected];
  const [templateUri, setTemplateUri] = useState<string | null>(null);
  const template = templates.find((t) => t.uriTemplate === templateUri) ?? null;

  const open = (uri: string) => {
    selectResource(server.id, uri);
    void readFresh(server.id, uri);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const uri = uriInput.trim();
    if (uri !== "") open(uri);
  };
  const refresh = () => {
    void loadList(server.id, "resources");
    void loadList(server.id, "resource_templates");
  };

  return (
    <div className="split">
      <div className="split-list">
        <ListHeader title={t("title")} list={list} onRefresh={refresh} />
        {list.error && <ErrorBox title={t("listFailed")} message={list.error} />}
        {templateList.error && <ErrorBox title={t("templatesFailed")} message={templateList.error} />}
        {list.status === "loading" && resources.length === 0 && (
          <EmptyState testId="resources-loading">
            <Loading />
          </EmptyState>
        )}
        {list.status === "loaded" && resources.length === 0 && (
          <EmptyState
            title={templates.length === 0 && templateList.status === "loaded" ? t("empty.noneTitle") : t("empty.noResourcesTitle")}
            testId="resources-empty"
          >
            {templates.length === 0 && templateList.status === "loaded" ? t("empty.none") : t("empty.noResources")}
          </EmptyState>
        )}
        {resources.length + templates.length > 0 && (
          <ListFilter
            value={query}
            onChange={setQuery}
            shown={shownResources.length + shownTemplates.length}
            total={resources.length + templates.length}
            placeholder={t("list.filter")}
            testId="resources-filter"
          />
        )}
        <ResourceList
          resources={shownResources}
          templates={shownTemplates}
          filtered={query.trim() !== ""}
          selected={selected}
          selectedTemplate={template?.uriTemplate ?? null}
          subscribed={server.resources.subscribed ?? NONE}
          updated={server.resources.updated ?? NO_UPDATES}
          onSelect={(uri) => {
            // A listed resource replaces the template form; reading from the form keeps it.
            setTemplateUri(null);
            open(uri);
          }}
          onTemplate={setTemplateUri}
          resourcePager={
            <Pager
              list={list}
              kind="resources"
              testIdSuffix=""
              onMore={() => void loadMore(server.id, "resources")}
              onAll={() => void loadAll(server.id, "resources")}
            />
          }
          templatePager={
            <Pager
              list={templateList}
              kind="templates"
              testIdSuffix="-templates"
              onMore={() => void loadMore(server.id, "resource_templates")}
              onAll={() => void loadAll(server.id, "resource_templates")}
            />
          }
          templatesListed={templateList.status === "loaded"}
        />
      </div>
      <div className="split-detail scroll-area">
        <form className="uri-bar" onSubmit={submit}>
          <input
            className="mono"
            aria-label={t("uri.label")}
            placeholder={t("uri.placeholder")}
            value={uriInput}
            onChange={(e) => setResourceUriInput(server.id, e.target.value)}
            spellCheck={false}
          />
          <button type="submit" className="button" data-testid="read-resource-button" disabled={uriInput.trim() === ""}>
            <BookOpen size={14} aria-hidden />
            {t("read")}
          </button>
          <SaveCallButton onClick={() => saveCallDialog("resource", uriInput.trim(), {}, server.id)} disabled={uriInput.trim() === ""} />
        </form>
        {template && (
          <TemplateForm
            key={template.uriTemplate}
            server={server}
            template={template}
            onRead={open}
            onClose={() => setTemplateUri(null)}
          />
        )}
        {selected !== null && <ResourceToolbar server={server} uri={selected} />}
        {selected !== null && read ? (
          <ResourceContents uri={selected} read={read} />
        ) : (
          !template && (
            <EmptyState title={t("empty.detailTitle")} testId="resource-detail-empty">
              {t("empty.detail")}
            </EmptyState>
          )
        )}
      </div>
    </div>
  );
}

/** Subscribe / Unsubscribe, Re-read, and when the server last said the resource changed. */
function ResourceToolbar({ server, uri }: { server: ServerState; uri: string }) {
  const { t } = useTranslation("resources");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const subscribed = isSubscribed(server, uri);
  const update = server.resources.updated?.[uri];
  const toggle = async () => {
    setBusy(true);
    setError(await setSubscription(server.id, uri, !subscribed));
    setBusy(false);
  };
  return (
    <div className="resource-toolbar" data-testid="resource-toolbar">
      {canSubscribe(server) && (
        <button
          type="button"
          className="button button-small"
          data-testid="subscribe-toggle"
          data-subscribed={subscribed ? "true" : "false"}
          disabled={busy}
          onClick={() => void toggle()}
        >
          {subscribed ? <BellOff size={12} aria-hidden /> : <Bell size={12} aria-hidden />}
          {subscribed ? t("toolbar.unsubscribe") : t("toolbar.subscribe")}
        </button>
      )}
      <button type="button" className="button button-small" data-testid="reread" onClick={() => void readFresh(server.id, uri)}>
        <RefreshCw size={12} aria-hidden />
        {t("toolbar.reread")}
      </button>
      {update && (
        <span
          className={`update-badge${update.stale ? " stale" : ""}`}
          data-testid="resource-update"
          data-stale={update.stale ? "true" : "false"}
          title={t("toolbar.updates", { count: update.count })}
        >
          {update.stale
            ? t("updatedStale", { time: clockTime(update.wallUs) })
            : t("updated", { time: clockTime(update.wallUs) })}
        </span>
      )}
      {error && <span className="inline-error">{error}</span>}
    </div>
  );
}

/** "Loading…" with a spinner. */
function Loading() {
  const { t } = useTranslation("common");
  return (
    <span className="busy-text">
      <Loader2 size={14} className="spin" aria-hidden />
      {t("loading")}
    </span>
  );
}
