#!/usr/bin/env bash
# The engine stays headless: no GUI crate anywhere in periscope-core's dependency tree, so the
# CLI runs where no display exists and every protocol capability is testable without a window.
set -euo pipefail
cd "$(dirname "$0")/.."
gui=$(cargo tree -p periscope-core -e normal --prefix none --offline 2>/dev/null |
  grep -E '^(tauri|tauri-[a-z-]+|tao|wry|gtk|gdk|webkit2gtk|javascriptcore-rs|soup3) v' | sort -u || true)
if [ -n "$gui" ]; then
  echo "periscope-core depends on GUI crates (the engine must stay headless):" >&2
  echo "$gui" >&2
  exit 1
fi
echo "headless: periscope-core has no GUI crate in its tree"
