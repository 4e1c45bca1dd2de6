import { Bell } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ItemList } from "../common/ItemList";
import { formatTime } from "../format";
import type { ResourceInfo, TemplateInfo } from "./resources";
import { ServerText } from "../common/ServerText";

interface Props {
  resources: readonly ResourceInfo[];
  templates: readonly TemplateInfo[];
  selected: string | null;
  selectedTemplate: string | null;
  subscribed: readonly string[];
  updated: Record<string, { wallUs: number; stale: boolean }>;
  onSelect: (uri: string) => void;
  onTemplate: (uriTemplate: string) => void;
  /** Paging controls under the resources, and under the templates. */
  resourcePager: ReactNode;
  templatePager: ReactNode;
  /** The templates were listed (and may be none): a line says so under the resources. */
  templatesListed: boolean;
  /** The lists are filtered: none shown is not none listed. */
  filtered: boolean;
}

/** `12:03:04` of a µs timestamp. */
export const clockTime = (wallUs: number) => formatTime(wallUs).slice(0, 8);

/** The server's resources, then its resource templates. */
export function ResourceList({
  resources,
  templates,
  selected,
  selectedTemplate,
  subscribed,
  updated,
  onSelect,
  onTemplate,
  resourcePager,
  templatePager,
  templatesListed,
  filtered,
}: Props) {
  const { t } = useTranslation("resources");
  return (
    <>
      <ItemList
        items={resources}
        keyOf={(r) => r.uri}
        label={t("list.resources")}
        selected={selected}
        render={(r) => {
          const update = updated[r.uri];
          const isSubscribed = subscribed.includes(r.uri);
          return (
            <button
              type="button"
              className={`item${r.uri === selected ? " selected" : ""}`}
              data-testid="resource-item"
              data-uri={r.uri}
              data-subscribed={isSubscribed ? "true" : undefined}
              data-updated={update ? "true" : undefined}
              aria-current={r.uri === selected ? "true" : undefined}
              onClick={() => onSelect(r.uri)}
            >
              <span className="item-name">
                {isSubscribed && <Bell size={11} className="subscribed-icon" aria-label={t("list.subscribed")} />}
                <ServerText text={r.title ?? r.name ?? r.uri} />
              </span>
              <span className="item-sub mono">
                <ServerText text={r.uri} />
              </span>
              {update && (
                <span className={`update-badge${update.stale ? " stale" : ""}`} data-testid="resource-updated-badge">
                  {t("updated", { time: clockTime(update.wallUs) })}
                </span>
              )}
            </button>
          );
        }}
      />
      {resourcePager}
      {templates.length > 0 && (
        <>
          <div className="list-subheader">{t("list.templates")}</div>
          <ItemList
            items={templates}
            keyOf={(template) => template.uriTemplate}
            label={t("list.templatesLabel")}
            selected={selectedTemplate}
            render={(template) => (
              <button
                type="button"
                className={`item${template.uriTemplate === selectedTemplate ? " selected" : ""}`}
                data-testid="resource-template-item"
                data-uri-template={template.uriTemplate}
                aria-current={template.uriTemplate === selectedTemplate ? "true" : undefined}
                title={t("list.templateTitle")}
                onClick={() => onTemplate(template.uriTemplate)}
              >
                <span className="item-name">{template.title ?? template.name ?? template.uriTemplate}</span>
                <span className="item-sub mono">{template.uriTemplate}</span>
              </button>
            )}
          />
        </>
      )}
      {templatePager}
      {templates.length === 0 && templatesListed && !filtered && resources.length > 0 && (
        <p className="list-note muted small" data-testid="no-templates">
          {t("list.noTemplates")}
        </p>
      )}
    </>
  );
}
