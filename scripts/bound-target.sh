#!/usr/bin/env bash
# Keeps a long-lived cargo target folder from filling the disk: drops rustc's incremental
# caches, and empties the folder when it has grown past MAX_GIB or the disk has less than
# MIN_FREE_GIB free. Emptying costs one cold build (about five minutes more, docs/testing.md);
# a full disk costs the whole run.
set -euo pipefail
target="${1:?usage: bound-target.sh TARGET_DIR}"
MAX_GIB="${MAX_GIB:-40}"
MIN_FREE_GIB="${MIN_FREE_GIB:-25}"
[ -d "$target" ] || exit 0
# Cargo tags every target folder it makes; a folder without the tag is not ours to empty.
if [ ! -f "$target/CACHEDIR.TAG" ]; then
  echo "bound-target: $target has no CACHEDIR.TAG (not a Cargo target folder); left alone"
  exit 0
fi
find "$target" -maxdepth 3 -type d -name incremental -prune -exec rm -rf {} +
size_gib=$(( $(du -sk "$target" | cut -f1) / 1024 / 1024 ))
free_gib=$(( $(df -Pk "$target" | awk 'NR==2 {print $4}') / 1024 / 1024 ))
if [ "$size_gib" -gt "$MAX_GIB" ] || [ "$free_gib" -lt "$MIN_FREE_GIB" ]; then
  echo "bound-target: $target holds ${size_gib} GiB with ${free_gib} GiB free on its disk; emptying it"
  rm -rf "$target"
else
  echo "bound-target: $target holds ${size_gib} GiB, ${free_gib} GiB free on its disk"
fi
