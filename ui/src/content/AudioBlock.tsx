import { useState } from "react";
import { formatBytes } from "../format";

/** An audio block; says so when the webview refuses to load it. */
export function AudioBlock({ src, mimeType, size }: { src: string; mimeType: string; size: number }) {
  const [failed, setFailed] = useState(false);
  return (
    <figure className="block-media">
      <audio controls src={src} onError={() => setFailed(true)} />
      <figcaption>
        {mimeType}, {formatBytes(size)}
      </figcaption>
      {failed && (
        <p className="inline-error">
          This audio cannot be played here: the webview refused to load it (its format is unsupported, or the app's
          security policy does not allow data: media).
        </p>
      )}
    </figure>
  );
}
