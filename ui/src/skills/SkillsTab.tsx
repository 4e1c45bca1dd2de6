// The Skills view of a server (SEP-2640): the skills its listing names — name, description,
// files, what is wrong with an entry, what changed since last seen — and, on a click, one skill
// loaded or one of its files read, each verified by the engine against the skill's manifest.
import { useEffect, useMemo, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { CacheHintLine } from "../common/CacheHintLine";
import { ReadyGate } from "../common/ListGate";
import { EmptyState } from "../common/EmptyState";
import { formatNumber } from "../format";
import { ErrorBox } from "../common/ErrorBox";
import { ItemList } from "../common/ItemList";
import { ListFilter } from "../common/ListFilter";
import { RefreshButton } from "../common/RefreshButton";
import { ServerText } from "../common/ServerText";
import { searchText, useFilteredItems } from "../common/listFilter";
import type { SkillEntry } from "../bindings/SkillEntry";
import type { ServerState } from "../state/connections";
import { allSkills, sharedNames, skillMark, useServerSkills } from "../state/skills";
import "../styles/resources.css";
import "../styles/skills.css";
import { ensureSkills, getSkillByUri, listSkills, selectSkill } from "./actions";
import { descriptionOf } from "./describe";
import { SkillDetail } from "./SkillDetail";

export function SkillsTab({ server }: { server: ServerState }) {
  const { t } = useTranslation(["skills", "common"]);
  return (
    <ReadyGate server={server} notConnected={t("tab.connectTo")}>
      <SkillsView server={server} />
    </ReadyGate>
  );
}

function SkillsView({ server }: { server: ServerState }) {
  const { t } = useTranslation(["skills", "common"]);
  const state = useServerSkills(server.id);
  useEffect(() => ensureSkills(server.id), [server.id]);
  const entries = useMemo(() => allSkills(state), [state]);
  const shared = useMemo(() => sharedNames(entries), [entries]);
  const [query, setQuery] = useState("");
  const shown = useFilteredItems(entries, skillText, query);
  const selected = entries.find((e) => e.uri === state.selected) ?? null;
  if (state.status === "loaded" && state.view?.offer === null) {
    return (
      <EmptyState title={t("tab.notOfferedTitle")} testId="skills-not-offered">
        {t("tab.notOffered")}
      </EmptyState>
    );
  }
  return (
    <div className="split" data-testid="skills-view">
      <div className="split-list">
        <div className="list-header">
          <span className="list-title">{t("tab.title")}</span>
          {state.status === "loaded" && <span className="count">{formatNumber(entries.length)}</span>}
          <span className="spacer" />
          <RefreshButton onClick={() => void listSkills(server.id)} busy={state.status === "loading"} label={t("tab.refresh")} />
        </div>
        <CacheHintLine hint={state.view?.listing?.cache ?? null} />
        {state.error && <ErrorBox title={t("tab.listError")} message={state.error} />}
        {state.status === "loading" && entries.length === 0 && <EmptyState>{t("common:loading")}</EmptyState>}
        {state.status === "loaded" && entries.length === 0 && (
          <EmptyState title={t("tab.emptyTitle")} testId="skills-empty">
            {t("tab.empty")}
          </EmptyState>
        )}
        {entries.length > 0 && (
          <ListFilter
            value={query}
            onChange={setQuery}
            shown={shown.length}
            total={entries.length}
            placeholder={t("tab.filter")}
            testId="skills-filter"
          />
        )}
        <ItemList
          items={shown}
          keyOf={(e) => e.uri}
          label={t("tab.title")}
          selected={selected?.uri}
          render={(e) => (
            <SkillItem
              entry={e}
              selected={e.uri === selected?.uri}
              mark={skillMark(state, e.uri)}
              showUri={shared.has(e.name)}
              onClick={() => selectSkill(server.id, e.uri)}
            />
          )}
        />
        <ByUri serverId={server.id} />
      </div>
      <div className="split-detail scroll-area">
        {selected ? (
          <SkillDetail key={selected.uri} server={server} entry={selected} offer={state.view?.offer ?? null} />
        ) : (
          entries.length > 0 && (
            <EmptyState title={t("tab.noSelectionTitle")} testId="no-skill-selected">
              {t("tab.noSelection")}
            </EmptyState>
          )
        )}
      </div>
    </div>
  );
}

const skillText = (e: SkillEntry) => searchText(e.name, e.uri, typeof e.frontmatter === "object" ? JSON.stringify(e.frontmatter) : "");

function SkillItem({
  entry,
  selected,
  mark,
  showUri,
  onClick,
}: {
  entry: SkillEntry;
  selected: boolean;
  mark: "changed" | "added" | null;
  showUri: boolean;
  onClick: () => void;
}) {
  const { t } = useTranslation("skills");
  const description = descriptionOf(entry);
  return (
    <button
      type="button"
      className={`item${selected ? " selected" : ""}`}
      data-testid="skill-item"
      data-skill-uri={entry.uri}
      data-files={entry.resources?.length ?? undefined}
      aria-current={selected ? "true" : undefined}
      onClick={onClick}
    >
      <span className="item-name mono">
        <ServerText text={entry.name} />
        {mark && (
          <span className={`badge skill-mark skill-mark-${mark}`} data-testid="skill-mark">
            {t(`mark.${mark}`)}
          </span>
        )}
        {entry.problems.some((p) => p.kind !== "no_manifest") && (
          <span className="badge skill-badge-warning" data-testid="skill-problems">
            {t("list.problems", { count: entry.problems.length })}
          </span>
        )}
      </span>
      {description && (
        <span className="item-sub">
          <ServerText text={description} />
        </span>
      )}
      <span className="item-sub muted small">
        {entry.resources === null ? t("list.noManifest") : t("list.files", { count: entry.resources.length })}
        {showUri && <span className="mono"> · {entry.uri}</span>}
      </span>
    </button>
  );
}

/** A skill named by the URI of its SKILL.md (a listing may be partial: SEP-2640). */
function ByUri({ serverId }: { serverId: string }) {
  const { t } = useTranslation("skills");
  const [uri, setUri] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (uri.trim() === "") return;
    void getSkillByUri(serverId, uri.trim()).then(setError);
  };
  return (
    <form className="skill-by-uri" onSubmit={submit}>
      <input
        className="mono"
        data-testid="skill-uri-input"
        aria-label={t("byUri.label")}
        placeholder={t("byUri.placeholder")}
        value={uri}
        onChange={(e) => setUri(e.target.value)}
      />
      <button type="submit" className="button" data-testid="skill-uri-get">
        {t("byUri.get")}
      </button>
      {error && <ErrorBox message={error} />}
    </form>
  );
}
