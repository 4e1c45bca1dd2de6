import { RefreshCw, X } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { dismissNotice, useListsState, type ListNotice, type ListState } from "../state/lists";

/** How long a notice stays. */
const SHOWN_MS = 20_000;
const NONE: ListNotice[] = [];

const clock = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });

/** "Tools list changed at 12:03:04 — refreshed": the server's list_changed, said out loud. */
export function ListChangedNotice({ serverId, lists }: { serverId: string; lists: Record<string, ListState> }) {
  const { t } = useTranslation("saved");
  const notices = useListsState((s) => s.notices[serverId] ?? NONE);
  useEffect(() => {
    if (notices.length === 0) return;
    const timers = notices.map((n) =>
      window.setTimeout(() => dismissNotice(serverId, n.id), Math.max(0, n.wallMs + SHOWN_MS - Date.now())),
    );
    return () => timers.forEach((t) => window.clearTimeout(t));
  }, [serverId, notices]);
  if (notices.length === 0) return null;
  return (
    <div className="list-notices" role="status">
      {notices.map((n) => {
        // A list not loaded yet is fetched when its tab opens; a loaded one was fetched again.
        const loaded = (lists[n.kind]?.status ?? "idle") !== "idle";
        return (
          <div key={n.id} className="list-notice" data-testid="list-changed-notice" data-kind={n.kind}>
            <RefreshCw size={13} aria-hidden />
            <span>
              {t(loaded ? "notice.refreshed" : "notice.later", { list: t(`notice.lists.${n.kind}`), time: clock(n.wallMs) })}
            </span>
            <button type="button" className="icon-button" onClick={() => dismissNotice(serverId, n.id)} aria-label={t("notice.dismiss")} title={t("notice.dismiss")}>
              <X size={13} aria-hidden />
            </button>
          </div>
        );
      })}
    </div>
  );
}
