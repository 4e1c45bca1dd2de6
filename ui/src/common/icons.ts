// An item's icons, placed as the engine decided by their scheme (`IconSource`): inline
// `data:image/…` ones are shown; `https:` ones are named and loaded only on request (the app's
// CSP allows no remote image: see docs/tools.md); the rest are never shown.
import type { IconView } from "../bindings/IconView";

export interface PlacedIcons {
  shown: IconView[];
  remote: string[];
}

export function placeIcons(icons: IconView[]): PlacedIcons {
  return {
    shown: icons.filter((icon) => icon.source === "inline"),
    remote: icons.filter((icon) => icon.source === "remote").map((icon) => icon.src),
  };
}
