import { RefreshCw } from "lucide-react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "./EmptyState";

/** A list the server returned empty: what would be there, and Refresh to ask again. */
export function EmptyListState({
  title,
  body,
  testId,
  onRefresh,
}: {
  title: string;
  body: string;
  testId: string;
  onRefresh: () => void;
}) {
  const { t } = useTranslation("common");
  return (
    <EmptyState
      title={title}
      testId={testId}
      action={
        <button type="button" className="button button-small" onClick={onRefresh}>
          <RefreshCw size={13} aria-hidden />
          {t("refresh")}
        </button>
      }
    >
      {body}
    </EmptyState>
  );
}
