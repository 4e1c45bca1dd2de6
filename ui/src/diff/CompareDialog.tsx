import { GitCompare } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CompareMoment } from "../bindings/CompareMoment";
import type { BreakingChange } from "../bindings/BreakingChange";
import type { SurfaceDiff } from "../bindings/SurfaceDiff";
import { ErrorBox } from "../common/ErrorBox";
import { Dialog } from "../dialog/Dialog";
import { errorMessage, resendIpc } from "../ipc";
import { useConnections } from "../state/connections";
import { useRecordings } from "../state/recordings";
import { ChangeList } from "./ChangeList";

/** "Compare…" on a server or a recording: the button and its dialog. */
export function CompareButton({ id }: { id: string }) {
  const { t } = useTranslation("diff");
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="button" data-testid="compare-button" title={t("buttonTitle")} onClick={() => setOpen(true)}>
        <GitCompare size={14} aria-hidden />
        {t("button")}
      </button>
      {open && <CompareDialog id={id} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The sessions a comparison can take: the catalog's servers (their record, live or ended) and open recordings. */
function useSides(): Array<{ id: string; name: string }> {
  const catalog = useConnections((s) => s.catalog);
  const servers = useConnections((s) => s.servers);
  const recordings = useRecordings((s) => s.list);
  return [
    ...catalog.filter((e) => (servers[e.id]?.session ?? 0) > 0).map((e) => ({ id: e.id, name: e.name })),
    ...recordings.map((r) => ({ id: r.id, name: r.name })),
  ];
}

function Side({
  label,
  testId,
  id,
  moment,
  onChange,
}: {
  label: string;
  testId: string;
  id: string;
  moment: CompareMoment;
  onChange: (id: string, moment: CompareMoment) => void;
}) {
  const { t } = useTranslation("diff");
  const sides = useSides();
  return (
    <fieldset className="compare-side">
      <legend>{label}</legend>
      <select data-testid={testId} value={id} onChange={(e) => onChange(e.target.value, moment)}>
        {sides.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
      <select data-testid={`${testId}-moment`} value={moment} onChange={(e) => onChange(id, e.target.value as CompareMoment)}>
        <option value="first">{t("first")}</option>
        <option value="last">{t("last")}</option>
      </select>
    </fieldset>
  );
}

/**
 * Two sessions (a live server, a recording) or one session's first and last listing compared:
 * capabilities and server info, then each list's added, removed and changed items, every change
 * with its JSON Pointer and both values (the engine's `diff::compare`).
 */
export function CompareDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation(["diff", "common"]);
  const [before, setBefore] = useState<{ id: string; moment: CompareMoment }>({ id, moment: "first" });
  const [after, setAfter] = useState<{ id: string; moment: CompareMoment }>({ id, moment: "last" });
  const [result, setResult] = useState<SurfaceDiff | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setError(null);
    setResult(null);
    try {
      setResult(await resendIpc.compareSessions(before, after));
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <Dialog
      title={t("title")}
      onClose={onClose}
      testId="compare-dialog"
      className="modal-wide"
      dismiss={{ label: t("common:close") }}
      footer={
        <button type="button" className="button button-primary" data-testid="compare-run" onClick={() => void run()}>
          <GitCompare size={14} aria-hidden />
          {t("run")}
        </button>
      }
    >
      <div className="compare-sides">
        <Side label={t("beforeSide")} testId="compare-before" id={before.id} moment={before.moment} onChange={(i, m) => setBefore({ id: i, moment: m })} />
        <Side label={t("afterSide")} testId="compare-after" id={after.id} moment={after.moment} onChange={(i, m) => setAfter({ id: i, moment: m })} />
      </div>
      {error && <ErrorBox message={error} />}
      {result && <DiffResult diff={result} />}
    </Dialog>
  );
}

const isSame = (diff: SurfaceDiff): boolean =>
  diff.identity.length === 0 &&
  diff.identity_before === diff.identity_after &&
  diff.lists.every((l) => l.listed_before === l.listed_after && l.added.length + l.removed.length + l.changed.length === 0);

export function DiffResult({ diff }: { diff: SurfaceDiff }) {
  const { t } = useTranslation("diff");
  if (isSame(diff)) {
    return (
      <p className="section" data-testid="diff-same">
        {t("same")}
      </p>
    );
  }
  return (
    <div className="diff-result" data-testid="diff-result">
      {diff.breaking.length > 0 && <BreakingList changes={diff.breaking} />}
      <section className="section" data-testid="diff-identity">
        <h3>{t("identity")}</h3>
        {diff.identity_before !== diff.identity_after ? (
          <p className="muted">{diff.identity_before ? t("identityOnlyBefore") : t("identityOnlyAfter")}</p>
        ) : diff.identity.length === 0 ? (
          <p className="muted">{t("noChange")}</p>
        ) : (
          <ChangeList changes={diff.identity} />
        )}
      </section>
      {diff.lists.map((list) => (
        <section key={list.kind} className="section" data-testid={`diff-list-${list.kind}`}>
          <h3>{t(`lists.${list.kind}`)}</h3>
          {!list.listed_before || !list.listed_after ? (
            <p className="muted">{t("notListed")}</p>
          ) : list.added.length + list.removed.length + list.changed.length === 0 ? (
            <p className="muted">{t("noChange")}</p>
          ) : (
            <ul className="recorded-items">
              {list.added.map((name) => (
                <li key={`+${name}`} className="recorded-item diff-added" data-testid="diff-added" data-name={name}>
                  <span className="mono">{name}</span> <strong>{t("added")}</strong>
                </li>
              ))}
              {list.removed.map((name) => (
                <li key={`-${name}`} className="recorded-item diff-removed" data-testid="diff-removed" data-name={name}>
                  <span className="mono">{name}</span> <strong>{t("removed")}</strong>
                </li>
              ))}
              {list.changed.map((item) => (
                <li key={`~${item.key}`} className="recorded-item" data-testid="diff-changed" data-name={item.key}>
                  <span className="mono">{item.key}</span> <strong>{t("changed")}</strong>
                  <ChangeList changes={item.changes} />
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </div>
  );
}

/** What breaks a client written against the before side (the engine says which: `breaking`). */
function BreakingList({ changes }: { changes: BreakingChange[] }) {
  const { t } = useTranslation("diff");
  return (
    <section className="section" data-testid="diff-breaking">
      <h3>{t("breaking.title")}</h3>
      <ul className="recorded-items">
        {changes.map((change, i) => {
          const item = `${t(`lists.${change.list}`)} ${change.key}`;
          const why = change.why;
          const text =
            why.kind === "removed"
              ? t("breaking.removed", { item })
              : why.kind === "new_required_argument"
                ? t("breaking.new_required_argument", { item, name: why.name, path: why.path })
                : why.kind === "narrowed_type"
                  ? t("breaking.narrowed_type", {
                      item,
                      path: why.path,
                      before: why.before.join("|"),
                      after: why.after.join("|"),
                    })
                  : t("breaking.removed_enum_value", { item, path: why.path, value: JSON.stringify(why.value) });
          return (
            <li key={i} className="recorded-item diff-removed" data-testid="diff-breaking-item">
              {text}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
