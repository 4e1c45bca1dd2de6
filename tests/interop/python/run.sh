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
STAMP="$VENV/.installed"

if [[ ! -f "$STAMP" || "$DIR/requirements.txt" -nt "$STAMP" ]]; then
  # Tests start in parallel: one installs, the others wait for it (and then find it done).
  exec 9>"$DIR/.venv.lock"
  flock 9
  if [[ ! -f "$STAMP" || "$DIR/requirements.txt" -nt "$STAMP" ]]; then
    echo "interop: installing the MCP Python SDK into $VENV ..." >&2
    rm -rf "$VENV"
    python3 -m venv "$VENV" >&2
    "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$DIR/requirements.txt" >&2
    touch "$STAMP"
  fi
  flock -u 9
fi

cd "$DIR"
exec "$VENV/bin/python" "$@"
