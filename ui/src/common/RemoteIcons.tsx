// Icons a server names by https: URL. The page loads no remote content (CSP), so nothing is
// fetched until the user asks; then the app fetches each one without cookies or credentials,
// at most 256 KiB, and the page shows it as a data: image.
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage, serverIpc } from "../ipc";

export function RemoteIcons({ urls, className }: { urls: string[]; className?: string }) {
  const { t } = useTranslation("common");
  const [loaded, setLoaded] = useState<Array<{ url: string; src: string | null; error: string | null }> | null>(null);
  if (urls.length === 0) return null;
  if (loaded === null) {
    return (
      <button
        type="button"
        className="link-button"
        data-testid="load-remote-icons"
        title={urls.join("\n")}
        onClick={() => {
          setLoaded(urls.map((url) => ({ url, src: null, error: null })));
          urls.forEach((url, i) => {
            serverIpc.fetchIcon(url).then(
              (src) => setLoaded((l) => l && l.map((x, j) => (j === i ? { ...x, src } : x))),
              (e: unknown) => setLoaded((l) => l && l.map((x, j) => (j === i ? { ...x, error: errorMessage(e) } : x))),
            );
          });
        }}
      >
        {t("remoteIcons.load", { count: urls.length })}
      </button>
    );
  }
  return (
    <>
      {loaded.map((icon) =>
        icon.src ? (
          <img key={icon.url} className={className} src={icon.src} alt="" title={icon.url} data-testid="remote-icon" />
        ) : icon.error ? (
          <span key={icon.url} className="muted" title={icon.url} data-testid="remote-icon-error">
            {icon.error}
          </span>
        ) : null,
      )}
    </>
  );
}
