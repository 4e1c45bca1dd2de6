// Multi round-trip calls (MCP 2026-07-28) in the traffic list. The engine links each request
// it sent again after `input_required` to the call's first request, and gives every row of a
// call (the first request and the responses that asked for input included) its round chip
// (`TrafficRow.round`); this says it in words.
import type { RoundChip } from "../bindings/RoundChip";
import i18n from "../i18n";

/** The chip a frame's row shows (in the current language). */
export function roundLabel(chip: RoundChip): string {
  if (chip.round === 1) return i18n.t("traffic:round.call", { count: chip.rounds });
  return i18n.t("traffic:round.of", { round: chip.round, first: chip.first_seq });
}
