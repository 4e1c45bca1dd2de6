import { Link } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { ContentBlock } from "../bindings/ContentBlock";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import { JsonBlock } from "../common/JsonBlock";
import { ServerText } from "../common/ServerText";
import { dataUri } from "../format";
import { AudioBlock } from "./AudioBlock";
import { ImageBlock } from "./ImageBlock";
import { problemText } from "./blocks";
import { ResourceBodyView } from "./ResourceBodyView";

/** One MCP content block, as the engine read it. */
export function BlockView({ block }: { block: ContentBlock }) {
  const { t } = useTranslation("content");
  switch (block.type) {
    case "text":
      return (
        <pre className="code-block block-text" data-testid="result-text">
          <ServerText text={block.text} />
        </pre>
      );
    case "image":
      return <ImageBlock src={dataUri(block.mime_type, block.data)} mimeType={block.mime_type} size={block.size} />;
    case "audio":
      return <AudioBlock src={dataUri(block.mime_type, block.data)} mimeType={block.mime_type} size={block.size} />;
    case "resource_link":
      return (
        <div className="block-link">
          <Link size={14} aria-hidden />
          <div>
            <div>
              <strong>
                <ServerText text={block.title ?? block.name ?? block.uri} />
              </strong>
              {block.mime_type && <span className="badge">{block.mime_type}</span>}
            </div>
            <div className="mono small">{block.uri}</div>
            {block.description && (
              <div className="muted small">
                <ServerText text={block.description} />
              </div>
            )}
          </div>
        </div>
      );
    case "resource":
      return (
        <div className="block-resource">
          <div className="block-label">{t("block.embedded")}</div>
          <ResourceBodyView contents={block.resource} />
        </div>
      );
    case "unknown":
      return <UnknownBlock reason={problemText(block.problem)} raw={block.raw} />;
    default:
      // Sampling's tool use and tool result have no place in a message: shown as JSON.
      return <UnknownBlock reason={problemText({ kind: "unknownType", type: block.type })} raw={block.raw} />;
  }
}

/** A block that cannot be shown as its kind: why, and its JSON as sent. */
function UnknownBlock({ reason, raw }: { reason: string; raw: JsonValue }) {
  const { t } = useTranslation("content");
  return (
    <div className="block-unknown">
      <div className="inline-error">{t("block.cannotShow", { reason })}</div>
      <JsonBlock value={raw} />
    </div>
  );
}
