import { Link } from "lucide-react";
import { useTranslation } from "react-i18next";
import { JsonBlock } from "../common/JsonBlock";
import { AudioBlock } from "./AudioBlock";
import { ImageBlock } from "./ImageBlock";
import type { Block } from "./blocks";
import { ResourceBodyView } from "./ResourceBodyView";

/** One MCP content block. */
export function BlockView({ block }: { block: Block }) {
  const { t } = useTranslation("content");
  switch (block.type) {
    case "text":
      return (
        <pre className="code-block block-text" data-testid="result-text">
          {block.text}
        </pre>
      );
    case "image":
      return <ImageBlock src={block.src} mimeType={block.mimeType} size={block.size} />;
    case "audio":
      return <AudioBlock src={block.src} mimeType={block.mimeType} size={block.size} />;
    case "resource_link":
      return (
        <div className="block-link">
          <Link size={14} aria-hidden />
          <div>
            <div>
              <strong>{block.title ?? block.name ?? block.uri}</strong>
              {block.mimeType && <span className="badge">{block.mimeType}</span>}
            </div>
            <div className="mono small">{block.uri}</div>
            {block.description && <div className="muted small">{block.description}</div>}
          </div>
        </div>
      );
    case "resource":
      return (
        <div className="block-resource">
          <div className="block-label">{t("block.embedded")}</div>
          <ResourceBodyView body={block.resource} />
        </div>
      );
    case "unknown":
      return (
        <div className="block-unknown">
          <div className="inline-error">{t("block.cannotShow", { reason: block.reason })}</div>
          <JsonBlock value={block.raw} />
        </div>
      );
  }
}
