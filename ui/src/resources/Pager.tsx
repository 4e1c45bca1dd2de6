import { useTranslation } from "react-i18next";
import type { ListState } from "../state/lists";

interface Props {
  list: ListState;
  /** What the list holds. */
  kind: "resources" | "templates";
  testIdSuffix: string;
  onMore: () => void;
  onAll: () => void;
}

/** Under a list loaded page by page: how many are shown, and Load more / Load all while the server has more. */
export function Pager({ list, kind, testIdSuffix, onMore, onAll }: Props) {
  const { t } = useTranslation("resources");
  if (!list.nextCursor) return null;
  const busy = list.status === "loading";
  return (
    <div className="pager" data-testid={`pager${testIdSuffix}`}>
      <span className="muted small">
        {kind === "resources"
          ? t("pager.resourcesShown", { count: list.items.length })
          : t("pager.templatesShown", { count: list.items.length })}
      </span>
      <div className="pager-buttons">
        <button
          type="button"
          className="button button-small"
          data-testid={`load-more${testIdSuffix}`}
          disabled={busy}
          onClick={onMore}
        >
          {t("pager.more")}
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid={`load-all${testIdSuffix}`}
          disabled={busy}
          onClick={onAll}
        >
          {t("pager.all")}
        </button>
      </div>
    </div>
  );
}
