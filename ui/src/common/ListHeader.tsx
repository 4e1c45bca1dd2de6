import { useTranslation } from "react-i18next";
import { formatNumber } from "../format";
import { CacheHintLine } from "./CacheHintLine";
import { RefreshButton } from "./RefreshButton";
import type { ListState } from "../state/lists";

/** The title of a list, its count, a refresh button, and the list's caching hints. */
export function ListHeader({ title, list, onRefresh }: { title: string; list: ListState; onRefresh: () => void }) {
  const { t } = useTranslation("common");
  return (
    <>
      <div className="list-header">
        <span className="list-title">{title}</span>
        {list.status === "loaded" && <span className="count">{formatNumber(list.items.length)}</span>}
        <span className="spacer" />
        <RefreshButton
          onClick={onRefresh}
          busy={list.status === "loading"}
          label={t("listHeader.refresh", { what: title.toLowerCase() })}
        />
      </div>
      <CacheHintLine hint={list.cache} />
    </>
  );
}
