#!/usr/bin/env bash
# Regenerates the TypeScript bindings (ts-rs) from the Rust types the UI consumes (the engine's,
# and the app's command argument types), and fails if the committed files under ui/src/bindings
# differ: the UI must never drift from the Rust side.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf ui/src/bindings
cargo test -q -p periscope-core --features ts export_bindings >/dev/null
cargo test -q -p periscope-app --features ts --lib export_bindings >/dev/null
if ! git diff --quiet -- ui/src/bindings || [ -n "$(git ls-files --others --exclude-standard ui/src/bindings)" ]; then
  echo "ui/src/bindings is stale: the Rust types changed. Commit the regenerated files:" >&2
  git status --short -- ui/src/bindings >&2
  exit 1
fi
echo "bindings: up to date"
