// Servers opened from the command line (`periscope-app -- …`, `--url …`) sit in the catalog as
// temporary entries until the user saves them: which ones, fetched again whenever the catalog
// changes, and the Save that keeps one.
import { useEffect, useState } from "react";
import type { TemporaryEntry } from "../bindings/TemporaryEntry";
import i18n from "../i18n";
import { errorMessage, ipc } from "../ipc";
import { addAppError, setCatalog, useConnections } from "../state/connections";

export function useTemporaryEntries(): Map<string, TemporaryEntry> {
  const catalog = useConnections((s) => s.catalog);
  const [temporary, setTemporary] = useState<Map<string, TemporaryEntry>>(new Map());
  useEffect(() => {
    let current = true;
    ipc.catalogTemporary().then(
      (list) => {
        if (current) setTemporary(new Map(list.map((t) => [t.id, t])));
      },
      (error: unknown) => addAppError(i18n.t("sidebar:temporary.readFailed", { error: errorMessage(error) })),
    );
    return () => {
      current = false;
    };
  }, [catalog]);
  return temporary;
}

/** Writes a temporary entry to the catalog file; the new catalog drops its mark. */
export async function keepEntry(id: string): Promise<void> {
  try {
    setCatalog(await ipc.catalogKeep(id));
  } catch (error) {
    addAppError(i18n.t("sidebar:temporary.keepFailed", { error: errorMessage(error) }));
  }
}
