#!/usr/bin/env bash
# The release .deb's figures: its size, its installed size, launch to interactive (median of 5
# cold launches under Xvfb through WebDriver, until the built-in demo entry is connected) and
# idle memory, for the app unpacked from the package (so the demo server beside it is the
# packaged one). Targets (issue 12): .deb under 15 MB, launch under 1 s.
# Usage: benches/package.sh   (builds the release package first: scripts/package.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(scripts/package.sh | tail -n 1)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg -x "$deb" "$root"
bytes=$(stat -c %s "$deb")
echo "package: $deb"
awk -v b="$bytes" 'BEGIN { printf "  .deb size:      %.1f MB (%d bytes)\n", b / 1e6, b }'
echo "  installed size: $(dpkg-deb -f "$deb" Installed-Size) KiB (Installed-Size)"
for bin in periscope-app periscope periscope-demo-server; do
  echo "  usr/bin/$bin: $(stat -c %s "$root/usr/bin/$bin") bytes"
done
# The harness needs the test build's helper binaries (tauri-driver is installed by bootstrap).
# The harness itself runs from the debug profile, like benches/run.sh; only the app is release.
PERISCOPE_BENCH_APP="$root/usr/bin/periscope-app" cargo test -p periscope-benches --bench app -- app
