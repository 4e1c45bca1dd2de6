import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatBytes } from "../format";

/** An audio block; says so when the webview refuses to load it. */
export function AudioBlock({ src, mimeType, size }: { src: string; mimeType: string; size: number }) {
  const { t } = useTranslation("content");
  const [failed, setFailed] = useState(false);
  return (
    <figure className="block-media">
      <audio controls src={src} onError={() => setFailed(true)} />
      <figcaption>{t("media.caption", { mimeType, size: formatBytes(size) })}</figcaption>
      {failed && <p className="inline-error">{t("media.audioFailed")}</p>}
    </figure>
  );
}
