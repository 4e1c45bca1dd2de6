import { Loader2 } from "lucide-react";
import { useTranslation } from "react-i18next";

/** "Connecting…" with a spinner, where a view waits for the connection. */
export function Connecting() {
  const { t } = useTranslation("common");
  return (
    <span className="busy-text">
      <Loader2 size={14} className="spin" aria-hidden />
      {t("connecting")}
    </span>
  );
}
