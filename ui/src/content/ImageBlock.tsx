import { useTranslation } from "react-i18next";
import { formatBytes } from "../format";

/** An image content block (a data: URL), with its type and size. */
export function ImageBlock({ src, mimeType, size }: { src: string; mimeType: string; size: number }) {
  const { t } = useTranslation("content");
  return (
    <figure className="block-media">
      <img className="preview-image" src={src} alt={t("media.imageAlt", { mimeType })} />
      <figcaption>{t("media.caption", { mimeType, size: formatBytes(size) })}</figcaption>
    </figure>
  );
}
