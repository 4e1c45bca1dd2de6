import { Download } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatBytes } from "../format";
import { errorMessage } from "../ipc";
import { resourcesIpc } from "../ipc";
import type { ResourceContents } from "../bindings/ResourceContents";
import { HexDump } from "./HexDump";
import { JsonTree } from "./JsonTree";
import { viewerFor } from "./viewers";
import { ServerText } from "../common/ServerText";

/**
 * One resource's contents, in the viewer its MIME type calls for: text in mono, JSON as a
 * collapsible tree (or raw), an image (data: URI), any other blob as a hex dump; blobs can be
 * saved to a file.
 */
export function ResourceBodyView({ contents: body }: { contents: ResourceContents }) {
  const { t } = useTranslation("content");
  const viewer = useMemo(() => viewerFor(body), [body]);
  const [raw, setRaw] = useState(false);
  return (
    <div className="resource-body" data-testid="resource-body" data-viewer={viewer.kind}>
      <div className="resource-body-meta">
        <span className="mono">{body.uri}</span>
        {body.mime_type && <span className="badge">{body.mime_type}</span>}
        {body.blob && <span className="badge">{formatBytes(body.blob.size)}</span>}
        <span className="spacer" />
        {(viewer.kind === "json" || viewer.kind === "image") && (
          <button
            type="button"
            className="button button-small"
            data-testid="viewer-toggle"
            aria-pressed={raw}
            onClick={() => setRaw(!raw)}
          >
            {viewer.kind === "json" ? (raw ? t("body.tree") : t("body.raw")) : raw ? t("body.image") : t("body.hex")}
          </button>
        )}
        {body.blob && <SaveButton uri={body.uri} data={body.blob.data} />}
      </div>
      {viewer.kind === "text" && (
        <pre className="code-block" data-testid="resource-text">
          <ServerText text={viewer.text} />
        </pre>
      )}
      {viewer.kind === "json" &&
        (raw ? (
          <pre className="code-block" data-testid="resource-text">
            <ServerText text={viewer.text} />
          </pre>
        ) : (
          <JsonTree value={viewer.value} />
        ))}
      {viewer.kind === "image" &&
        (raw ? (
          <HexDump data={viewer.data} />
        ) : (
          <img className="preview-image" data-testid="resource-image" src={viewer.src} alt={body.uri} />
        ))}
      {viewer.kind === "binary" && <HexDump data={viewer.data} />}
    </div>
  );
}

function SaveButton({ uri, data }: { uri: string; data: string }) {
  const { t } = useTranslation("content");
  const [outcome, setOutcome] = useState<{ saved: string } | { error: string } | null>(null);
  const save = async () => {
    setOutcome(null);
    try {
      const path = await resourcesIpc.saveBlob(uri, data);
      if (path !== null) setOutcome({ saved: path });
    } catch (error) {
      setOutcome({ error: errorMessage(error) });
    }
  };
  return (
    <>
      <button type="button" className="button button-small" data-testid="save-blob" onClick={() => void save()}>
        <Download size={12} aria-hidden />
        {t("body.save")}
      </button>
      {outcome && "saved" in outcome && <span className="muted small">{t("body.saved", { path: outcome.saved })}</span>}
      {outcome && "error" in outcome && (
        <span className="inline-error">{t("body.saveFailed", { error: outcome.error })}</span>
      )}
    </>
  );
}
