import { useTranslation } from "react-i18next";
import type { CacheHint } from "../bindings/CacheHint";
import { describeCacheHint, describeReuse } from "./cacheHint";

/** A small line under a list or a read result: how long it stays fresh, who may reuse it, and
 * whether Periscope answered it from its cache. Nothing for a result without hints. */
export function CacheHintLine({ hint }: { hint: CacheHint | null | undefined }) {
  const { t } = useTranslation("common");
  if (!hint) return null;
  const reuse = describeReuse(hint);
  return (
    <div className="cache-hint muted" data-testid="cache-hint" data-from-cache={reuse !== null} title={t("cache.title")}>
      {describeCacheHint(hint)}
      {reuse !== null && <span className="cache-reuse">{t("cache.reuse", { reuse })}</span>}
    </div>
  );
}
