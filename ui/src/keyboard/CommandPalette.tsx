import * as Dialog from "@radix-ui/react-dialog";
import { Command } from "cmdk";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ensureList } from "../actions/lists";
import { EmptyState } from "../common/EmptyState";
import { useConnections } from "../state/connections";
import { useServerLists } from "../state/lists";
import { ensureSaved, useServerSaved } from "../state/saved";
import "../styles/keyboard.css";
import { closeOverlay, useOverlay } from "./overlays";
import { filterPalette, GROUP_LABEL, paletteItems, type PaletteSource } from "./paletteItems";
import { runPaletteAction } from "./runPalette";
import { hintFor, isMac } from "./shortcuts";

const NO_SERVER = "";

/**
 * The command palette (Ctrl/⌘+K): every server, the selected server's tools, resources,
 * prompts and saved calls, its views, and the app's actions, with fuzzy search. A Radix
 * dialog (modal, focus trapped and given back on close) around a cmdk list.
 */
export function CommandPalette() {
  const { t } = useTranslation("keyboard");
  const open = useOverlay() === "palette";
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && closeOverlay()}>
      <Dialog.Portal>
        <Dialog.Overlay className="palette-overlay" />
        <Dialog.Content className="palette" data-testid="command-palette" aria-describedby={undefined}>
          <Dialog.Title className="sr-only">{t("palette.title")}</Dialog.Title>
          {open && <PaletteBody />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function PaletteBody() {
  const { t } = useTranslation("keyboard");
  const catalog = useConnections((s) => s.catalog);
  const servers = useConnections((s) => s.servers);
  const selectedId = useConnections((s) => s.selectedId);
  const lists = useServerLists(selectedId ?? NO_SERVER);
  const saved = useServerSaved(selectedId ?? NO_SERVER);
  const [query, setQuery] = useState("");
  const mac = isMac();

  // The palette reaches the selected server's lists even when their tabs were never shown.
  useEffect(() => {
    if (selectedId === null) return;
    for (const kind of ["tools", "resources", "prompts"] as const) ensureList(selectedId, kind);
    ensureSaved(selectedId);
  }, [selectedId]);

  const items = useMemo(() => {
    const statuses: PaletteSource["statuses"] = Object.fromEntries(
      Object.entries(servers).map(([id, s]) => [id, s.status.state]),
    );
    const selected = catalog.find((e) => e.id === selectedId);
    return paletteItems({
      catalog,
      statuses,
      selectedId,
      tools: lists.tools.items,
      resources: lists.resources.items,
      prompts: lists.prompts.items,
      saved: saved.calls,
      remote: selected?.target.transport === "http",
    });
    // The labels are in the language of the moment: the palette is built afresh each time it
    // opens, and the language cannot change while it is open (Settings closes it).
  }, [catalog, servers, selectedId, lists, saved.calls]);
  const shown = useMemo(() => filterPalette(items, query), [items, query]);

  return (
    <Command label={t("palette.title")} shouldFilter={false} loop>
      <Command.Input
        className="palette-input"
        data-testid="palette-input"
        value={query}
        onValueChange={setQuery}
        placeholder={t("palette.placeholder")}
        aria-label={t("palette.search")}
      />
      <Command.List className="palette-list" aria-label={t("palette.list")}>
        <Command.Empty className="palette-empty">
          <EmptyState testId="palette-empty" title={t("palette.empty.title", { query })}>
            {t("palette.empty.body")}
          </EmptyState>
        </Command.Empty>
        {shown.map((item) => {
          const hint = item.shortcut && hintFor(item.shortcut, mac);
          return (
            <Command.Item
              key={item.id}
              value={item.id}
              className="palette-item"
              data-testid="palette-item"
              data-item-id={item.id}
              onSelect={() => runPaletteAction(item.action)}
            >
              <span className="palette-item-main">
                <span className="palette-item-label">{item.label}</span>
                {item.detail && <span className="palette-item-detail">{item.detail}</span>}
              </span>
              <span className="palette-item-group">{t(GROUP_LABEL[item.group])}</span>
              {hint && <kbd className="kbd">{hint}</kbd>}
            </Command.Item>
          );
        })}
      </Command.List>
    </Command>
  );
}
