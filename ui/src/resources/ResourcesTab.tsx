import { BookOpen } from "lucide-react";
import { useMemo, type FormEvent } from "react";
import { loadList, readResource, selectResource, setResourceUriInput } from "../actions";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { ListGate } from "../common/ListGate";
import { ListHeader } from "../common/ListHeader";
import { useLists } from "../common/useLists";
import type { ListKind } from "../ipc";
import type { ServerState } from "../store";
import { ResourceContents } from "./ResourceContents";
import { ResourceList } from "./ResourceList";
import { resourceInfo, templateInfo, type ResourceInfo, type TemplateInfo } from "./resources";

const KINDS: readonly ListKind[] = ["resources", "resource_templates"];

export function ResourcesTab({ server }: { server: ServerState }) {
  useLists(server, KINDS);
  return (
    <ListGate server={server} kind="resources" noun="resources">
      <ResourcesView server={server} />
    </ListGate>
  );
}

function ResourcesView({ server }: { server: ServerState }) {
  const list = server.lists.resources;
  const templateList = server.lists.resource_templates;
  const resources = useMemo(
    () => list.items.map(resourceInfo).filter((r): r is ResourceInfo => r !== null),
    [list.items],
  );
  const templates = useMemo(
    () => templateList.items.map(templateInfo).filter((t): t is TemplateInfo => t !== null),
    [templateList.items],
  );
  const { selected, uriInput, reads } = server.resources;
  const read = selected === null ? undefined : reads[selected];

  const open = (uri: string) => {
    selectResource(server.id, uri);
    void readResource(server.id, uri);
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
        <ListHeader title="Resources" list={list} onRefresh={refresh} />
        {list.error && <ErrorBox title="Could not list the resources" message={list.error} />}
        {templateList.error && <ErrorBox title="Could not list the resource templates" message={templateList.error} />}
        {list.status === "loading" && resources.length === 0 && <EmptyState>Loading…</EmptyState>}
        {list.status === "loaded" && resources.length === 0 && <EmptyState>The server lists no resources.</EmptyState>}
        <ResourceList
          resources={resources}
          templates={templates}
          selected={selected}
          onSelect={open}
          onTemplate={(t) => setResourceUriInput(server.id, t)}
        />
      </div>
      <div className="split-detail scroll-area">
        <form className="uri-bar" onSubmit={submit}>
          <input
            className="mono"
            aria-label="Resource URI"
            placeholder="Resource URI, e.g. file:///…"
            value={uriInput}
            onChange={(e) => setResourceUriInput(server.id, e.target.value)}
            spellCheck={false}
          />
          <button type="submit" className="button" data-testid="read-resource-button" disabled={uriInput.trim() === ""}>
            <BookOpen size={14} aria-hidden />
            Read
          </button>
        </form>
        {selected !== null && read ? (
          <ResourceContents uri={selected} read={read} />
        ) : (
          <EmptyState>Select a resource to read it.</EmptyState>
        )}
      </div>
    </div>
  );
}
