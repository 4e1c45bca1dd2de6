#!/usr/bin/env bash
# Runs a Python program beside this file with the project-local venv (.venv) that has the
# official MCP Python SDK (requirements.txt), creating the venv first when it is missing or
# older than requirements.txt. What the install prints goes to stderr: over stdio, stdout is
# the protocol.
#
#   tests/interop/python/run.sh modern_server.py stdio
#   tests/interop/python/run.sh modern_server.py http      # prints its URL first
set -euo pipefail

DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$DIR/.venv"
# shellcheck source=../../scripts/venv.sh
source "$DIR/../../../scripts/venv.sh"
ensure_venv "$DIR" "the MCP Python SDK"

cd "$DIR"
exec "$VENV/bin/python" "$@"
