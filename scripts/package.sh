#!/usr/bin/env bash
# Builds Periscope's .deb: the app, its desktop entry and icon set (tauri.conf.json's bundle
# section), and beside the app in /usr/bin the `periscope` CLI and `periscope-demo-server` (the
# app starts its built-in demo entries from beside its own binary). Prints the .deb's path last.
#
# Usage: scripts/package.sh            release .deb (the tuned release profile), copied to dist/
#        scripts/package.sh --debug    the same package from the test build's debug binaries
#                                      (with the test seams), for tests/tests/package_deb.rs
#
# The binaries are built with cargo and then bundled with `tauri bundle` (not `tauri build`):
# the debug package must reuse the very binaries the test build made, and `tauri build` would
# rebuild the app alone with other features, replacing the test build's app binary.
set -euo pipefail
cd "$(dirname "$0")/.."

profile=release
case "${1:-}" in
  "") ;;
  --debug) profile=debug ;;
  *) echo "usage: scripts/package.sh [--debug]" >&2; exit 2 ;;
esac

target="${CARGO_TARGET_DIR:-$PWD/target}"
case "$target" in /*) ;; *) target="$PWD/$target" ;; esac
export CARGO_TARGET_DIR="$target"

# The app embeds ui/dist at compile time.
if [ "$profile" = release ] || [ ! -f ui/dist/index.html ]; then
  (cd ui && npm run build)
fi

if [ "$profile" = debug ]; then
  # Exactly the test build's command (Makefile `unit`), so nothing is rebuilt when it ran.
  cargo build --workspace --bins --features periscope-cli/test-seams,periscope-app/test-seams
  bundle_flags=(--debug --features test-seams)
else
  cargo build --release -p periscope-app -p periscope-cli -p periscope-demo-server
  bundle_flags=()
fi

bins="$target/$profile"
# Absolute paths of the two companion binaries, merged into tauri.conf.json for this run
# (the target folder moves between machines, so they cannot be written in the file).
extra=$(printf '{"bundle":{"linux":{"deb":{"files":{"/usr/bin/periscope":"%s","/usr/bin/periscope-demo-server":"%s"}}}}}' \
  "$bins/periscope" "$bins/periscope-demo-server")

out="$bins/bundle/deb"
rm -f "$out"/*.deb
ui/node_modules/.bin/tauri bundle --ci --no-binary-patching --bundles deb "${bundle_flags[@]}" --config "$extra"

shopt -s nullglob
debs=("$out"/*.deb)
if [ ${#debs[@]} -ne 1 ]; then
  echo "package: expected one .deb in $out, found ${#debs[@]}" >&2
  exit 1
fi
# Tauri names the file after productName (Periscope_…); the package itself is `periscope`.
version=$(dpkg-deb -f "${debs[0]}" Version)
arch=$(dpkg-deb -f "${debs[0]}" Architecture)
name="periscope_${version}_${arch}.deb"
if [ "$profile" = release ]; then
  # Tauri's bundler compresses with gzip; xz makes the download a quarter smaller (dpkg and apt
  # have read xz since Debian 7). Not for the debug package: xz -9 over its 170 MB is slow.
  mkdir -p dist
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  dpkg-deb -R "${debs[0]}" "$work/pkg"
  dpkg-deb --root-owner-group -Zxz -z9 -b "$work/pkg" "dist/$name" >/dev/null
  echo "$PWD/dist/$name"
else
  mv "${debs[0]}" "$out/$name"
  echo "$out/$name"
fi
