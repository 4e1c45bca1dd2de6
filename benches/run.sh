#!/usr/bin/env bash
# Builds the release binaries the benchmarks drive, installs the peer (the official MCP
# Inspector CLI with its Node 22) project-locally, then runs the benchmarks.
# Usage: benches/run.sh [roundtrip|flood|oneshot|cli_flood|store|checks|recording|check|audit|app|app_flood|app_lists|app_audit|load|load_app|load_gen|evals]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p periscope-cli -p periscope-demo-server -p periscope-tests --bins
# The app benchmark drives the debug app with its embedded UI, like the end-to-end tests.
(cd ui && npm run build)
cargo build -p periscope-app -p periscope-demo-server -p periscope-tests --bins
if [ ! -x benches/peers/node_modules/node/bin/node ]; then
  (cd benches/peers && npm install --no-fund --no-audit --loglevel=error)
fi
filter="${1:-}"
case "$filter" in
  ""|roundtrip|flood|oneshot|cli_flood) cargo bench -p periscope-benches --bench engine -- "$@" ;;
esac
# The traffic store: ingest, a flood against the TypeScript SDK client, queries over 1 000 000 frames.
if [ -z "$filter" ] || [ "$filter" = "store" ]; then
  cargo bench -p periscope-benches --bench store
fi
# Recordings: opening a 1 000 000-frame record file (read, reopened, the app's File → Open).
if [ -z "$filter" ] || [ "$filter" = "recording" ]; then
  cargo bench -p periscope-benches --bench recording
fi
# Protocol checks: recording with the per-frame schema checks on against off, the share checked.
if [ -z "$filter" ] || [ "$filter" = "checks" ]; then
  cargo bench -p periscope-benches --bench checks
fi
# periscope check: the whole check of the demo server (both eras) over stdio and over HTTP, beside
# the official conformance suite's server mode (its pinned line, installed by its runner).
if [ -z "$filter" ] || [ "$filter" = "check" ]; then
  tests/conformance/run.sh --line next --version >/dev/null
  cargo bench -p periscope-benches --bench check
fi
# periscope audit of 1 000 tools (the lint, the token count, the host matrix) beside the listing alone.
if [ -z "$filter" ] || [ "$filter" = "audit" ]; then
  cargo bench -p periscope-benches --bench audit
fi
# Load through the engine: 10 000 requests in flight, a minute of flood (release binaries).
if [ -z "$filter" ] || [ "$filter" = "load" ]; then
  cargo bench -p periscope-benches --bench load -- load
fi
# periscope load: the engine's round trip against a raw pipe, the generator against the
# TypeScript SDK client, Periscope's CPU at the demo server's breaking point (release binaries).
if [ -z "$filter" ] || [ "$filter" = "load_gen" ]; then
  cargo bench -p periscope-benches --bench load_gen -- load_gen
fi
# periscope eval run: Periscope's own time per repetition against the model's and the server's.
if [ -z "$filter" ] || [ "$filter" = "evals" ]; then
  cargo bench -p periscope-benches --bench evals
fi
# The app benches find the app and demo binaries beside themselves, in the debug target folder.
if [ -z "$filter" ] || [ "$filter" = "app" ]; then
  cargo test -p periscope-benches --bench app -- app
fi
if [ -z "$filter" ] || [ "$filter" = "app_flood" ]; then
  cargo test -p periscope-benches --bench app_flood -- app_flood
fi
if [ -z "$filter" ] || [ "$filter" = "app_lists" ]; then
  cargo test -p periscope-benches --bench app_lists -- app_lists
fi
if [ -z "$filter" ] || [ "$filter" = "app_audit" ]; then
  cargo test -p periscope-benches --bench app_audit -- app_audit
fi
if [ -z "$filter" ] || [ "$filter" = "load_app" ]; then
  cargo test -p periscope-benches --bench load_app -- load_app
fi
