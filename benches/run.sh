#!/usr/bin/env bash
# Builds the release binaries the benchmarks drive, installs the peer (the official MCP
# Inspector CLI with its Node 22) project-locally, then runs the benchmarks.
# Usage: benches/run.sh [roundtrip|flood|oneshot]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p periscope-cli -p periscope-demo-server -p periscope-tests --bins
if [ ! -x benches/peers/node_modules/node/bin/node ]; then
  (cd benches/peers && npm install --no-fund --no-audit --loglevel=error)
fi
cargo bench -p periscope-benches --bench engine -- "$@"
