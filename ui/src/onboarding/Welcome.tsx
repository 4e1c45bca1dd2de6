// The welcome view: what the main area shows when no server is selected (an empty catalog, or
// "Welcome" in the command palette). It says what the built-in demo server is and opens it,
// and helps add the user's own server: paste a command line, a URL or a config (with
// examples), or pick a host config found on this computer. Nothing here connects, runs or
// imports: "Continue" opens the server form or the import preview, where the user confirms.
import { ArrowRight, Download, FileJson, Loader2, Plus, Telescope } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { HostFile } from "../bindings/HostFile";
import { ipc } from "../ipc";
import { select, useConnections } from "../state/connections";
import { openImport, openServerForm } from "../sidebar/dialogs";
import { hostLabel, hostsLookedFor } from "../sidebar/importPreview";
import { EXAMPLES, routePaste, type PasteRoute } from "./route";

/** The demo entries the catalog is seeded with (src-tauri/src/catalog_store.rs). */
export const DEMO_ID = "demo";
export const DEMO_LEGACY_ID = "demo-legacy";

/** Opens what the paste needs; nothing else. */
export function continueWith(route: PasteRoute): void {
  switch (route.kind) {
    case "empty":
      return;
    case "url":
      return openServerForm(null, { transport: "http", url: route.url, name: route.name });
    case "config":
    case "command":
      return openImport({ text: route.text });
  }
}

export function Welcome() {
  const { t } = useTranslation(["onboarding", "common"]);
  const hasDemo = useConnections((s) => s.catalog.some((e) => e.id === DEMO_ID));
  const hasLegacyDemo = useConnections((s) => s.catalog.some((e) => e.id === DEMO_LEGACY_ID));
  const [text, setText] = useState("");
  const route = routePaste(text);
  const ids = useId();

  return (
    <div className="welcome" data-testid="welcome">
      <header className="welcome-header">
        <h1>
          <Telescope size={20} aria-hidden />
          {t("title")}
        </h1>
        <p className="muted">{t("select")}</p>
      </header>

      <section className="welcome-section" aria-labelledby={`${ids}-demo`}>
        <h2 id={`${ids}-demo`}>{t("demo.title")}</h2>
        <p>{t("demo.body")}</p>
        <div className="welcome-actions">
          <button
            type="button"
            className="button button-primary"
            data-testid="welcome-demo"
            disabled={!hasDemo}
            onClick={() => select(DEMO_ID)}
          >
            <ArrowRight size={14} aria-hidden />
            {t("demo.open")}
          </button>
          {hasLegacyDemo && (
            <button type="button" className="button" data-testid="welcome-demo-legacy" onClick={() => select(DEMO_LEGACY_ID)}>
              {t("demo.openLegacy")}
            </button>
          )}
        </div>
        {!hasDemo && <p className="muted small">{t("demo.removed")}</p>}
      </section>

      <section className="welcome-section" aria-labelledby={`${ids}-own`}>
        <h2 id={`${ids}-own`}>{t("own.title")}</h2>
        <label htmlFor={`${ids}-paste`}>{t("own.pasteLabel")}</label>
        <textarea
          id={`${ids}-paste`}
          className="mono"
          data-testid="welcome-paste"
          rows={5}
          spellCheck={false}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t("own.placeholder")}
        />
        <div className="welcome-examples">
          <span className="muted small">{t("own.examples")}</span>
          {EXAMPLES.map((example, i) => (
            <button
              key={example.kind}
              type="button"
              className="welcome-example"
              data-testid={`welcome-example-${i}`}
              data-kind={example.kind}
              title={example.text}
              onClick={() => setText(example.text)}
            >
              <span className="welcome-example-kind">{t(`own.example.${example.kind}`)}</span>
              <code>{example.kind === "config" ? CONFIG_SHORT : example.text}</code>
            </button>
          ))}
        </div>
        <div className="welcome-actions">
          <button
            type="button"
            className="button button-primary"
            data-testid="welcome-continue"
            data-route={route.kind}
            disabled={route.kind === "empty"}
            onClick={() => continueWith(route)}
          >
            {t(`own.continue.${route.kind}`)}
          </button>
          <span className="muted small" data-testid="welcome-route">
            {t(`own.next.${route.kind}`)}
          </span>
        </div>
        <p className="muted small">
          <button type="button" className="link-button" data-testid="welcome-empty-form" onClick={() => openServerForm(null)}>
            <Plus size={12} aria-hidden />
            {t("own.emptyForm")}
          </button>
        </p>
      </section>

      <HostFiles />
    </div>
  );
}

/** The config example, shortened for its button (the whole text goes into the box). */
const CONFIG_SHORT = '{"mcpServers": {…}}';

/** The host config files found on this computer, each opening the import preview on it. */
function HostFiles() {
  const { t } = useTranslation(["onboarding", "common"]);
  const [files, setFiles] = useState<HostFile[] | null>(null);
  const ids = useId();
  useEffect(() => {
    let live = true;
    ipc.importHostFiles().then(
      (found) => live && setFiles(found),
      () => live && setFiles([]),
    );
    return () => {
      live = false;
    };
  }, []);

  return (
    <section className="welcome-section" data-testid="welcome-hosts" aria-labelledby={`${ids}-hosts`}>
      <h2 id={`${ids}-hosts`}>{t("hosts.title")}</h2>
      {files === null && (
        <p className="muted">
          <Loader2 size={12} className="spin" aria-hidden /> {t("hosts.looking")}
        </p>
      )}
      {files !== null && files.length === 0 && (
        <p className="muted" data-testid="welcome-hosts-none">
          {t("hosts.none", { hosts: hostsLookedFor() })}
        </p>
      )}
      {files !== null && files.length > 0 && (
        <>
          <p>{t("hosts.found", { count: files.length })}</p>
          <ul className="welcome-host-list">
            {files.map((file) => (
              <li key={file.path}>
                <FileJson size={14} aria-hidden />
                <span className="welcome-host-name">{hostLabel(file.dialect)}</span>
                <span className="muted small mono welcome-host-path" title={file.path}>
                  {file.path}
                </span>
                <button
                  type="button"
                  className="button button-small"
                  data-testid="welcome-host-file"
                  data-dialect={file.dialect}
                  onClick={() => openImport({ file: file.path })}
                >
                  <Download size={12} aria-hidden />
                  {t("hosts.preview")}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
