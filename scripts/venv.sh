# Sourced by the run.sh of a project-local Python venv (tests/interop/python, tests/load):
# `ensure_venv DIR WHAT` creates DIR/.venv from DIR/requirements.txt when it is missing or older
# than the requirements. What the install prints goes to stderr (over stdio, stdout is the
# protocol).
ensure_venv() {
  local dir="$1" what="$2"
  local venv="$dir/.venv"
  local stamp="$venv/.installed"
  if [[ ! -f "$stamp" || "$dir/requirements.txt" -nt "$stamp" ]]; then
    # Tests start in parallel: one installs, the others wait for it (and then find it done).
    exec 9>"$dir/.venv.lock"
    flock 9
    if [[ ! -f "$stamp" || "$dir/requirements.txt" -nt "$stamp" ]]; then
      echo "installing $what into $venv ..." >&2
      rm -rf "$venv"
      python3 -m venv "$venv" >&2
      "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$dir/requirements.txt" >&2
      touch "$stamp"
    fi
    flock -u 9
  fi
}
