import { formatBytes } from "../format";

/** An image content block (a data: URL), with its type and size. */
export function ImageBlock({ src, mimeType, size }: { src: string; mimeType: string; size: number }) {
  return (
    <figure className="block-media">
      <img className="preview-image" src={src} alt={`${mimeType} image`} />
      <figcaption>
        {mimeType}, {formatBytes(size)}
      </figcaption>
    </figure>
  );
}
