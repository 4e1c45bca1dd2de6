// One skill: its entry (description, frontmatter, manifest, what is wrong with it), its
// SKILL.md loaded on a click (rendered, its frontmatter beside it, its raw text), its files
// read on a click, its folders browsed where the server offers it. Every fetched file shows
// its verification; a file that failed shows why, never its content.
import { BookOpen, FileText, Folder, FolderOpen } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { LoadedSkill } from "../bindings/LoadedSkill";
import type { SkillEntry } from "../bindings/SkillEntry";
import type { SkillsOffer } from "../bindings/SkillsOffer";
import { EmptyState } from "../common/EmptyState";
import { ErrorBox } from "../common/ErrorBox";
import { JsonBlock } from "../common/JsonBlock";
import { ServerMarkdown } from "../common/ServerMarkdown";
import { ServerText } from "../common/ServerText";
import { formatBytes } from "../format";
import type { ServerState } from "../state/connections";
import { useServerSkills } from "../state/skills";
import { closeFolder, loadSkill, openFolder, readSkillFile } from "./actions";
import { describeEntryProblem, describeFrontmatterProblem, describeRefusal, descriptionOf } from "./describe";
import { CheckLine, SkillFileView } from "./SkillFileView";

export function SkillDetail({ server, entry, offer }: { server: ServerState; entry: SkillEntry; offer: SkillsOffer | null }) {
  const { t } = useTranslation("skills");
  const state = useServerSkills(server.id);
  const loaded = state.loaded[entry.uri];
  const description = descriptionOf(entry);
  const openFile = state.openFile !== null && state.openFile !== entry.uri ? state.openFile : null;
  const read = openFile === null ? undefined : state.files[openFile];
  return (
    <div className="detail" data-testid="skill-detail">
      <h2 className="detail-title">
        <span className="mono">
          <ServerText text={entry.name} />
        </span>
        <span className="detail-subtitle mono">{entry.uri}</span>
      </h2>
      {description && (
        <p className="description">
          <ServerText text={description} />
        </p>
      )}
      {entry.problems.length > 0 && (
        <ul className="skill-problems" data-testid="skill-entry-problems">
          {entry.problems.map((p, i) => (
            <li key={i}>{describeEntryProblem(p)}</li>
          ))}
        </ul>
      )}
      <section className="detail-section">
        <h3>{t("detail.files")}</h3>
        {entry.resources === null ? (
          <p className="muted">{t("detail.noManifest")}</p>
        ) : (
          <table className="skill-files" data-testid="skill-files">
            <thead>
              <tr>
                <th>{t("detail.path")}</th>
                <th>{t("detail.size")}</th>
                <th>{t("detail.digest")}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {entry.resources.map((f) => {
                const path = relative(entry, f.uri);
                const isSkillMd = f.uri === entry.uri;
                return (
                  <tr key={f.uri} data-testid="skill-file" data-file-path={path}>
                    <td className="mono">{path}</td>
                    <td>{f.size === null ? "—" : formatBytes(f.size)}</td>
                    <td className="mono small" title={f.digest}>
                      {shortDigest(f.digest)}
                    </td>
                    <td>
                      {isSkillMd ? (
                        <button
                          type="button"
                          className="button button-primary"
                          data-testid="skill-load"
                          disabled={loaded?.status === "running"}
                          onClick={() => void loadSkill(server.id, entry)}
                        >
                          <BookOpen size={14} aria-hidden /> {t("detail.load")}
                        </button>
                      ) : (
                        <button
                          type="button"
                          className="button"
                          data-testid="skill-open-file"
                          onClick={() => void readSkillFile(server.id, entry, f.uri)}
                        >
                          <FileText size={14} aria-hidden /> {t("detail.open")}
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        {entry.resources === null && (
          <button type="button" className="button button-primary" data-testid="skill-load" onClick={() => void loadSkill(server.id, entry)}>
            <BookOpen size={14} aria-hidden /> {t("detail.load")}
          </button>
        )}
      </section>
      {offer?.directory_read && <FolderBrowser serverId={server.id} entry={entry} />}
      {openFile !== null && read && (
        <section className="detail-section" data-testid="skill-file-view">
          <h3 className="mono">{relative(entry, openFile)}</h3>
          {read.status === "running" && <p className="muted">{t("detail.reading")}</p>}
          {read.status === "failed" && <ErrorBox message={read.error} />}
          {read.status === "done" && <SkillFileView read={read.value} />}
        </section>
      )}
      <section className="detail-section">
        <h3>{t("detail.skillMd")}</h3>
        {loaded === undefined && (
          <EmptyState title={t("detail.notLoadedTitle")} testId="skill-not-loaded">
            {t("detail.notLoaded")}
          </EmptyState>
        )}
        {loaded?.status === "running" && <p className="muted">{t("detail.loading")}</p>}
        {loaded?.status === "failed" && <ErrorBox message={loaded.error} />}
        {loaded?.status === "done" && <LoadedView loaded={loaded.value} />}
      </section>
      <section className="detail-section">
        <h3>{t("detail.entryFrontmatter")}</h3>
        <JsonBlock value={entry.frontmatter} testId="skill-entry-frontmatter" />
      </section>
    </div>
  );
}

/** The ways a loaded SKILL.md is shown. */
const SKILL_VIEWS = ["rendered", "frontmatter", "raw"] as const;

function LoadedView({ loaded }: { loaded: LoadedSkill }) {
  const { t } = useTranslation("skills");
  const [view, setView] = useState<(typeof SKILL_VIEWS)[number]>("rendered");
  const fm = loaded.frontmatter;
  const text = loaded.skill_md.content?.kind === "text" ? loaded.skill_md.content.text : null;
  return (
    <div data-testid="skill-loaded">
      <CheckLine check={loaded.skill_md.check} />
      {loaded.refusal && (
        <div className="inline-error" data-testid="skill-refused">
          {loaded.refusal.kind === "file_unverified"
            ? t("detail.refusedUnverified")
            : t("detail.refused", { why: describeRefusal(loaded.refusal) })}
        </div>
      )}
      {fm && fm.differences.length > 0 && (
        <table className="skill-differences" data-testid="skill-differences">
          <thead>
            <tr>
              <th>{t("detail.field")}</th>
              <th>{t("detail.inFile")}</th>
              <th>{t("detail.inEntry")}</th>
            </tr>
          </thead>
          <tbody>
            {fm.differences.map((d) => (
              <tr key={d.field}>
                <td className="mono">{d.field}</td>
                <td className="mono">{d.file === null ? "—" : JSON.stringify(d.file)}</td>
                <td className="mono">{d.entry === null ? "—" : JSON.stringify(d.entry)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {fm && fm.problems.length > 0 && (
        <ul className="skill-problems" data-testid="skill-frontmatter-problems">
          {fm.problems.map((p, i) => (
            <li key={i}>{describeFrontmatterProblem(p)}</li>
          ))}
        </ul>
      )}
      {fm && (
        <div className="segmented skill-views" role="tablist">
          {SKILL_VIEWS.map((v) => (
            <button
              key={v}
              type="button"
              role="tab"
              aria-selected={view === v}
              className={view === v ? "active" : undefined}
              data-testid={`skill-view-${v}`}
              onClick={() => setView(v)}
            >
              {t(`detail.views.${v}`)}
            </button>
          ))}
        </div>
      )}
      {fm && view === "rendered" && text !== null && (
        <div className="markdown skill-body" data-testid="skill-rendered">
          <ServerMarkdown text={fm.body} />
        </div>
      )}
      {fm && view === "frontmatter" && (
        <div data-testid="skill-frontmatter">
          {fm.error && <div className="inline-error">{t("detail.frontmatterError", { error: fm.error })}</div>}
          {fm.fields !== null && <JsonBlock value={fm.fields} />}
          {fm.raw !== null && (
            <pre className="code-block" data-testid="skill-frontmatter-raw">
              {fm.raw}
            </pre>
          )}
        </div>
      )}
      {fm && view === "raw" && (
        <pre className="code-block" data-testid="skill-raw">
          {text ?? t("detail.withheld")}
        </pre>
      )}
    </div>
  );
}

/** The skill's folders, opened one level at a time (`resources/directory/read`). */
function FolderBrowser({ serverId, entry }: { serverId: string; entry: SkillEntry }) {
  const { t } = useTranslation("skills");
  return (
    <section className="detail-section" data-testid="skill-folders">
      <h3>{t("detail.folders")}</h3>
      <FolderNode serverId={serverId} entry={entry} uri={entry.root} name={entry.name} />
    </section>
  );
}

function FolderNode({ serverId, entry, uri, name }: { serverId: string; entry: SkillEntry; uri: string; name: string }) {
  const { t } = useTranslation("skills");
  const state = useServerSkills(serverId);
  const folder = state.folders[uri];
  const open = folder !== undefined;
  return (
    <div className="skill-folder">
      <button
        type="button"
        className="link-button mono"
        data-testid="skill-folder"
        data-folder-uri={uri}
        aria-expanded={open}
        onClick={() => (open ? closeFolder(serverId, uri) : void openFolder(serverId, uri))}
      >
        {open ? <FolderOpen size={14} aria-hidden /> : <Folder size={14} aria-hidden />} {name}/
      </button>
      {folder?.status === "running" && <span className="muted small"> {t("detail.reading")}</span>}
      {folder?.status === "failed" && <ErrorBox message={folder.error} />}
      {folder?.status === "done" && folder.value !== null && (
        <ul className="skill-folder-children">
          {folder.value.children.length === 0 && <li className="muted">{t("detail.emptyFolder")}</li>}
          {folder.value.children.map((child, i) => {
            const c = child as { uri?: unknown; name?: unknown; mimeType?: unknown };
            const childUri = typeof c.uri === "string" ? c.uri : "";
            const childName = typeof c.name === "string" ? c.name : childUri;
            return (
              <li key={`${childUri}-${i}`}>
                {c.mimeType === "inode/directory" ? (
                  <FolderNode serverId={serverId} entry={entry} uri={childUri} name={childName} />
                ) : (
                  <button
                    type="button"
                    className="link-button mono"
                    data-testid="skill-folder-file"
                    data-file-uri={childUri}
                    onClick={() => void (childUri === entry.uri ? loadSkill(serverId, entry) : readSkillFile(serverId, entry, childUri))}
                  >
                    <FileText size={14} aria-hidden /> {childName}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

export function relative(entry: SkillEntry, uri: string): string {
  return uri.startsWith(`${entry.root}/`) ? uri.slice(entry.root.length + 1) : uri;
}

function shortDigest(digest: string): string {
  return digest.startsWith("sha256:") && digest.length > 19 ? `${digest.slice(0, 19)}…` : digest;
}
