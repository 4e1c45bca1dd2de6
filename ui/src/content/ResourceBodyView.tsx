import { formatBytes } from "../format";
import type { ResourceBody } from "./blocks";

/** One resource's contents: text in mono, or what a blob is (with a preview for images). */
export function ResourceBodyView({ body }: { body: ResourceBody }) {
  return (
    <div className="resource-body">
      <div className="resource-body-meta">
        <span className="mono">{body.uri}</span>
        {body.mimeType && <span className="badge">{body.mimeType}</span>}
      </div>
      {body.text !== null && <pre className="code-block">{body.text}</pre>}
      {body.blob && (
        <div className="blob-info">
          <span>
            Binary contents, {formatBytes(body.blob.size)}
            {body.mimeType ? ` of ${body.mimeType}` : ""}
          </span>
          {body.blob.imageSrc && <img className="preview-image" src={body.blob.imageSrc} alt={body.uri} />}
        </div>
      )}
    </div>
  );
}
