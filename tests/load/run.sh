#!/usr/bin/env bash
# Runs Locust from the project-local venv (.venv) beside this file (requirements.txt, pinned),
# creating the venv first when it is missing or older than requirements.txt. What the install
# prints goes to stderr.
#
#   tests/load/run.sh -f locustfile.py --headless -u 4 -r 4 -t 10s
set -euo pipefail

DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$DIR/.venv"
# shellcheck source=../../scripts/venv.sh
source "$DIR/../../scripts/venv.sh"
ensure_venv "$DIR" "Locust"

exec "$VENV/bin/locust" "$@"
