import { ExternalLink } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AboutInfo } from "../bindings/AboutInfo";
import type { AboutLinkInfo } from "../bindings/AboutLinkInfo";
import { ErrorBox } from "../common/ErrorBox";
import { Dialog } from "../dialog/Dialog";
import { aboutIpc, errorMessage } from "../ipc";
import { closeOverlay, useOverlay } from "../keyboard/overlays";
import "../styles/keyboard.css";

type Loaded = { kind: "loading" } | { kind: "loaded"; info: AboutInfo } | { kind: "error"; error: string };

/**
 * A link's label in the UI's language: the engine names a specification link "MCP specification
 * <revision>" in English; its revision is the last part of its URL. Other labels are names.
 */
function linkLabel(link: AboutLinkInfo, t: (key: "links.spec", options: { revision: string }) => string): string {
  if (link.link !== "spec_modern" && link.link !== "spec_stateful") return link.label;
  const revision = link.url.split("/").filter(Boolean).pop() ?? "";
  return /^\d{4}-\d{2}-\d{2}$/.test(revision) ? t("links.spec", { revision }) : link.label;
}

/** Versions of the app and the engine, the protocol revisions it speaks, and links. */
export function AboutDialog() {
  const { t } = useTranslation("about");
  const open = useOverlay() === "about";
  if (!open) return null;
  return (
    <Dialog title={t("title")} onClose={closeOverlay} testId="about-dialog">
      <AboutBody />
    </Dialog>
  );
}

function AboutBody() {
  const { t } = useTranslation(["about", "common"]);
  const [state, setState] = useState<Loaded>({ kind: "loading" });
  const [linkError, setLinkError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    aboutIpc
      .about()
      .then((info) => live && setState({ kind: "loaded", info }))
      .catch((error: unknown) => live && setState({ kind: "error", error: errorMessage(error) }));
    return () => {
      live = false;
    };
  }, []);
  if (state.kind === "loading") return <p className="muted">{t("common:loading")}</p>;
  if (state.kind === "error") return <ErrorBox message={t("versionsFailed", { error: state.error })} />;
  const { info } = state;
  const openLink = (link: AboutLinkInfo) => {
    setLinkError(null);
    aboutIpc
      .openAboutLink(link.link)
      .catch((error: unknown) => setLinkError(t("linkFailed", { url: link.url, error: errorMessage(error) })));
  };
  return (
    <>
      <p>{t("tagline")}</p>
      <dl className="about-versions">
        <dt>{t("app")}</dt>
        <dd className="mono" data-testid="about-app-version">{info.app_version}</dd>
        <dt>{t("engine")}</dt>
        <dd className="mono" data-testid="about-engine-version">{info.engine_version}</dd>
        <dt>{t("revisions")}</dt>
        <dd data-testid="about-revisions">
          {info.revisions.map((r) => (
            <span
              key={r.revision}
              className="badge"
              data-revision={r.revision}
              title={r.era === "modern" ? t("eraModern") : t("eraStateful")}
            >
              {r.latest ? t("revisionDefault", { revision: r.revision }) : r.revision}
            </span>
          ))}
        </dd>
      </dl>
      <ul className="about-links">
        {info.links.map((link) => (
          <li key={link.link}>
            <button type="button" className="link-button" data-testid={`about-link-${link.link}`} onClick={() => openLink(link)}>
              <ExternalLink size={13} aria-hidden />
              {linkLabel(link, t)}
            </button>{" "}
            <span className="muted small mono">{link.url}</span>
          </li>
        ))}
      </ul>
      <p className="muted small">{t("linksNote")}</p>
      {linkError && <ErrorBox message={linkError} />}
    </>
  );
}
