// An app asks to add a message to the conversation (`ui/message`): the content is shown as the
// app sent it, and nothing is sent on unless the user accepts.
import { MessageSquare } from "lucide-react";
import { useId } from "react";
import { Trans, useTranslation } from "react-i18next";
import type { ContentBlock } from "../bindings/ContentBlock";
import { BlockView } from "../content/BlockView";
import type { McpAppLabel } from "../ipc/mcpApps";
import "../styles/answering.css";

interface Props {
  serverName: string;
  app: McpAppLabel;
  /** The blocks the engine read from the message's content (an array, or one block). */
  blocks: ContentBlock[];
  onAnswer: (accept: boolean) => void;
}

export function AppMessage({ serverName, app, blocks, onAnswer }: Props) {
  const { t } = useTranslation(["mcpApps", "common"]);
  const ids = useId();
  return (
    <section
      className="host-card"
      data-testid="app-message"
      data-view={app.view}
      role="dialog"
      aria-labelledby={`${ids}-title`}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          onAnswer(false);
        }
      }}
    >
      <header className="host-card-header">
        <MessageSquare size={16} aria-hidden className="host-card-icon" />
        <h2 id={`${ids}-title`}>
          <Trans
            t={t}
            i18nKey="asks.messageTitle"
            values={{ title: app.title, server: serverName }}
            components={{ server: <span className="host-server" /> }}
          />
        </h2>
      </header>
      <p className="host-message">{t("asks.messageBody")}</p>
      <div className="app-message-content" data-testid="app-message-content">
        {blocks.map((block, index) => (
          <BlockView key={index} block={block} />
        ))}
      </div>
      <div className="host-actions">
        <button type="button" className="button button-primary" data-testid="app-message-accept" onClick={() => onAnswer(true)}>
          {t("asks.messageAccept")}
        </button>
        <span className="spacer" />
        <button type="button" className="button" data-testid="app-message-decline" onClick={() => onAnswer(false)}>
          {t("common:decline")}
        </button>
      </div>
    </section>
  );
}
