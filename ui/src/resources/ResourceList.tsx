import type { ResourceInfo, TemplateInfo } from "./resources";

interface Props {
  resources: ResourceInfo[];
  templates: TemplateInfo[];
  selected: string | null;
  onSelect: (uri: string) => void;
  onTemplate: (uriTemplate: string) => void;
}

/** The server's resources, then its resource templates. */
export function ResourceList({ resources, templates, selected, onSelect, onTemplate }: Props) {
  return (
    <>
      <ul className="item-list" aria-label="Resources">
        {resources.map((r) => (
          <li key={r.uri}>
            <button
              type="button"
              className={`item${r.uri === selected ? " selected" : ""}`}
              data-testid="resource-item"
              data-uri={r.uri}
              aria-current={r.uri === selected ? "true" : undefined}
              onClick={() => onSelect(r.uri)}
            >
              <span className="item-name">{r.title ?? r.name ?? r.uri}</span>
              <span className="item-sub mono">{r.uri}</span>
            </button>
          </li>
        ))}
      </ul>
      {templates.length > 0 && (
        <>
          <div className="list-subheader">Templates</div>
          <ul className="item-list" aria-label="Resource templates">
            {templates.map((t) => (
              <li key={t.uriTemplate}>
                <button
                  type="button"
                  className="item"
                  data-testid="resource-template-item"
                  data-uri-template={t.uriTemplate}
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
    </>
  );
}
