import { Loader2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ReadResultView } from "../bindings/ReadResultView";
import { ContentsItemView } from "../content/ContentsItemView";
import { CacheHintLine } from "../common/CacheHintLine";
import { ErrorBox } from "../common/ErrorBox";
import { SPINNER_AFTER_MS, useNow } from "../common/useNow";
import type { RequestState } from "../state/calls";

/** What `resources/read` returned for one URI. */
export function ResourceContents({ uri, read }: { uri: string; read: RequestState<ReadResultView> }) {
  const { t } = useTranslation(["resources", "common"]);
  if (read.status === "running") return <Reading uri={uri} startedAt={read.startedAt} />;
  if (read.status === "error") {
    return (
      <div data-testid="resource-contents" data-is-error="true">
        <ErrorBox title={t("contents.readFailed", { uri })} message={read.error ?? t("common:unknownError")} />
      </div>
    );
  }
  const contents = read.result?.contents ?? [];
  return (
    <div className="resource-contents" data-testid="resource-contents" data-is-error="false">
      <CacheHintLine hint={read.cache} />
      {contents.length === 0 && <p className="muted">{t("contents.none")}</p>}
      {contents.map((item, index) => (
        <ContentsItemView key={index} item={item} cannotShow={(problem) => t("contents.cannotShow", { problem })} />
      ))}
    </div>
  );
}

/**
 * A read in progress: nothing for the first moments (most reads answer at once), then a
 * spinner, the URI and how long it has taken.
 */
function Reading({ uri, startedAt }: { uri: string; startedAt: number | undefined }) {
  const { t } = useTranslation(["resources", "common"]);
  const [mounted] = useState(() => Date.now());
  const now = useNow(100);
  const elapsed = Math.max(0, now - (startedAt ?? mounted));
  if (elapsed < SPINNER_AFTER_MS) return <div className="result-pending" data-testid="resource-reading" />;
  return (
    <div className="result-pending busy-text" data-testid="resource-reading" role="status">
      <Loader2 size={14} className="spin" aria-hidden />
      {t("contents.reading", { uri })}
      <span className="muted">{t("contents.elapsed", { seconds: (elapsed / 1000).toFixed(1) })}</span>
    </div>
  );
}
