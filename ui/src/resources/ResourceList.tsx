import { Bell } from "lucide-react";
import type { ReactNode } from "react";
import { formatTime } from "../format";
import type { ResourceInfo, TemplateInfo } from "./resources";

interface Props {
  resources: ResourceInfo[];
  templates: TemplateInfo[];
  selected: string | null;
  selectedTemplate: string | null;
  subscribed: readonly string[];
  updated: Record<string, { wallUs: number; stale: boolean }>;
  onSelect: (uri: string) => void;
  onTemplate: (uriTemplate: string) => void;
  /** Paging controls under the resources, and under the templates. */
  resourcePager: ReactNode;
  templatePager: ReactNode;
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
}: Props) {
  return (
    <>
      <ul className="item-list" aria-label="Resources">
        {resources.map((r) => {
          const update = updated[r.uri];
          const isSubscribed = subscribed.includes(r.uri);
          return (
            <li key={r.uri}>
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
                  {isSubscribed && <Bell size={11} className="subscribed-icon" aria-label="subscribed" />}
                  {r.title ?? r.name ?? r.uri}
                </span>
                <span className="item-sub mono">{r.uri}</span>
                {update && (
                  <span className={`update-badge${update.stale ? " stale" : ""}`} data-testid="resource-updated-badge">
                    updated {clockTime(update.wallUs)}
                  </span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
      {resourcePager}
      {templates.length > 0 && (
        <>
          <div className="list-subheader">Templates</div>
          <ul className="item-list" aria-label="Resource templates">
            {templates.map((t) => (
              <li key={t.uriTemplate}>
                <button
                  type="button"
                  className={`item${t.uriTemplate === selectedTemplate ? " selected" : ""}`}
                  data-testid="resource-template-item"
                  data-uri-template={t.uriTemplate}
                  aria-current={t.uriTemplate === selectedTemplate ? "true" : undefined}
                  title="Fill in the template, then read it"
                  onClick={() => onTemplate(t.uriTemplate)}
                >
                  <span className="item-name">{t.title ?? t.name ?? t.uriTemplate}</span>
                  <span className="item-sub mono">{t.uriTemplate}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {templatePager}
    </>
  );
}
