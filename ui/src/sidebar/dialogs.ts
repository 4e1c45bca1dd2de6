// The sidebar's two dialogs, the server form and the import dialog: which one is open and what
// it starts from. The sidebar's buttons open them, and so do the palette and the welcome view
// (a URL pasted there opens the form with it filled in, anything else the import preview).
import type { ServerEntry } from "../bindings/ServerEntry";
import { Notifier, useNotifier } from "../state/notifier";
import type { ServerFormValues } from "./serverForm";

export interface FormDialog {
  /** The entry to edit; null for a new one. */
  entry: ServerEntry | null;
  /** A new entry's fields filled in already. */
  initial?: Partial<ServerFormValues>;
  /** Each opening is a fresh form (its key). */
  opening: number;
}

export interface ImportDialogStart {
  /** Text put in the paste box and previewed at once. */
  text?: string;
  /** A host config file previewed at once. */
  file?: string;
  opening: number;
}

interface Dialogs {
  form: FormDialog | null;
  importing: ImportDialogStart | null;
}

export const sidebarDialogs = new Notifier<Dialogs>({ form: null, importing: null });
let openings = 0;

export const useSidebarDialogs = <T>(selector: (state: Dialogs) => T): T => useNotifier(sidebarDialogs, selector);

/** Opens the server form on `entry` (null: a new one, with `initial` filled in). */
export function openServerForm(entry: ServerEntry | null, initial?: Partial<ServerFormValues>): void {
  openings += 1;
  sidebarDialogs.update((s) => ({ ...s, importing: null, form: { entry, initial, opening: openings } }));
}

export function closeServerForm(): void {
  sidebarDialogs.update((s) => (s.form === null ? s : { ...s, form: null }));
}

/** Opens the import dialog, empty or previewing a pasted text or a host file. */
export function openImport(start: { text?: string; file?: string } = {}): void {
  openings += 1;
  sidebarDialogs.update((s) => ({ ...s, form: null, importing: { ...start, opening: openings } }));
}

export function closeImport(): void {
  sidebarDialogs.update((s) => (s.importing === null ? s : { ...s, importing: null }));
}
