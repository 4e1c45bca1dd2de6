import * as Dialog from "@radix-ui/react-dialog";
import { ExternalLink, X } from "lucide-react";
import { useEffect, useState } from "react";
import type { AboutInfo } from "../bindings/AboutInfo";
import type { AboutLinkInfo } from "../bindings/AboutLinkInfo";
import { ErrorBox } from "../common/ErrorBox";
import { aboutIpc, errorMessage } from "../ipc";
import { closeOverlay, useOverlay } from "../keyboard/overlays";
import "../styles/keyboard.css";

type Loaded = { kind: "loading" } | { kind: "loaded"; info: AboutInfo } | { kind: "error"; message: string };

/** Versions of the app and the engine, the protocol revisions it speaks, and links. */
export function AboutDialog() {
  const open = useOverlay() === "about";
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && closeOverlay()}>
      <Dialog.Portal>
        <Dialog.Overlay className="modal-backdrop" />
        <Dialog.Content className="modal sheet" data-testid="about-dialog" aria-describedby={undefined}>
          <header className="modal-header">
            <Dialog.Title>About Periscope</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close" title="Close">
              <X size={16} aria-hidden />
            </Dialog.Close>
          </header>
          <div className="modal-body">{open && <AboutBody />}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function AboutBody() {
  const [state, setState] = useState<Loaded>({ kind: "loading" });
  const [linkError, setLinkError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    aboutIpc
      .about()
      .then((info) => live && setState({ kind: "loaded", info }))
      .catch((error: unknown) => live && setState({ kind: "error", message: `Could not read the versions: ${errorMessage(error)}` }));
    return () => {
      live = false;
    };
  }, []);
  if (state.kind === "loading") return <p className="muted">Loading…</p>;
  if (state.kind === "error") return <ErrorBox message={state.message} />;
  const { info } = state;
  const openLink = (link: AboutLinkInfo) => {
    setLinkError(null);
    aboutIpc.openAboutLink(link.link).catch((error: unknown) => setLinkError(`Could not open ${link.url}: ${errorMessage(error)}`));
  };
  return (
    <>
      <p>An inspector for MCP servers: every frame as it was sent and received.</p>
      <dl className="about-versions">
        <dt>App</dt>
        <dd className="mono" data-testid="about-app-version">{info.app_version}</dd>
        <dt>Engine</dt>
        <dd className="mono" data-testid="about-engine-version">{info.engine_version}</dd>
        <dt>Protocol revisions</dt>
        <dd data-testid="about-revisions">
          {info.revisions.map((r) => (
            <span key={r.revision} className="badge" data-revision={r.revision} title={r.era === "modern" ? "Modern era (no handshake)" : "Stateful era (initialize)"}>
              {r.revision}
              {r.latest ? " · default" : ""}
            </span>
          ))}
        </dd>
      </dl>
      <ul className="about-links">
        {info.links.map((link) => (
          <li key={link.link}>
            <button type="button" className="link-button" data-testid={`about-link-${link.link}`} onClick={() => openLink(link)}>
              <ExternalLink size={13} aria-hidden />
              {link.label}
            </button>{" "}
            <span className="muted small mono">{link.url}</span>
          </li>
        ))}
      </ul>
      <p className="muted small">A link opens in your web browser only when you click it.</p>
      {linkError && <ErrorBox message={linkError} />}
    </>
  );
}
