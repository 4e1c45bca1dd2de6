import { Bookmark } from "lucide-react";
import { useTranslation } from "react-i18next";

/** "Save call", beside a tab's Call / Read / Get button. */
export function SaveCallButton({ onClick, disabled = false }: { onClick: () => void; disabled?: boolean }) {
  const { t } = useTranslation("saved");
  return (
    <button
      type="button"
      className="button"
      data-testid="save-call-button"
      onClick={onClick}
      disabled={disabled}
      title={t("button.hint")}
    >
      <Bookmark size={14} aria-hidden />
      {t("button.label")}
    </button>
  );
}
