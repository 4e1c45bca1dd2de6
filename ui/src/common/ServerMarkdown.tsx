// Markdown a server wrote (tool results, instructions): React elements only, no raw HTML, and
// links and images inert — their target is shown, never fetched or opened.
import Markdown, { type Components } from "react-markdown";
import i18n from "../i18n";

const inert: Components = {
  a: ({ href, children }) => (
    <span className="md-link" title={href}>
      {children}
    </span>
  ),
  img: ({ src, alt }) => (
    <span className="md-image muted" title={typeof src === "string" ? src : undefined}>
      {alt ? i18n.t("common:markdown.imageWithAlt", { alt }) : i18n.t("common:markdown.image")}
    </span>
  ),
};

export function ServerMarkdown({ text }: { text: string }) {
  return (
    <Markdown skipHtml components={inert}>
      {text}
    </Markdown>
  );
}
