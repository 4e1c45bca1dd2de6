#!/usr/bin/env bash
# Fails when files of a crate import each other in a circle, or its top-level modules do
# (`session/` and `host/` through different files), naming the circle. It checks the engine
# (crates/periscope-core/src), the CLI (crates/periscope-cli/src), the app (src-tauri/src)
# and the demo server (crates/demo-server/src), each on its own: a crate's `crate::` paths
# mean its own files. An edge is a `crate::…`, `super::…` or `self::…` path in code (use lines
# and inline paths, not comments, strings or a file's own tests); a parent reaching into its
# children (`mod x;`, `x::y`) is not an edge. Usage:
#   scripts/check-cycles.sh [ALLOWLIST]
# ALLOWLIST (default scripts/cycles-allowed.txt, if it exists) holds circles still to be broken,
# one a line as this script prints them ("a.rs -> b.rs -> a.rs", or "ROOT: a.rs -> …" to name
# the crate); '#' starts a comment. SRC_ROOTS (space-separated source folders) checks others.
set -euo pipefail
cd "$(dirname "$0")/.."
allow="${1:-scripts/cycles-allowed.txt}"
roots="${SRC_ROOTS:-crates/periscope-core/src crates/periscope-cli/src src-tauri/src crates/demo-server/src}"
read -r -d '' check <<'PY' || true
import os
import re
import sys

root, allow_path = sys.argv[1], sys.argv[2]
if not os.path.isdir(root):
    # A moved crate must not pass unchecked.
    sys.exit(f"check-cycles: no source folder {root}")

def module_of(path):
    """The module path of a file: src/a/b.rs and src/a/b/mod.rs are ["a", "b"]."""
    rel = os.path.relpath(path, root)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib"):
        rel = rel[:-1]
    return rel

files = {}
for dirpath, _, names in os.walk(root):
    for name in names:
        if name.endswith(".rs"):
            path = os.path.join(dirpath, name)
            files[tuple(module_of(path))] = os.path.relpath(path, root)

def file_for(segments):
    """The file that defines the longest prefix of `segments` (an item path)."""
    for n in range(len(segments), 0, -1):
        if tuple(segments[:n]) in files:
            return files[tuple(segments[:n])]
    return None

def strip(text):
    """Code without comments, strings and chars (a doc comment naming a path is no edge), read
    left to right as the lexer does, so "http://" is no comment and a quote in a comment no
    string."""
    pattern = re.compile(
        r'//[^\n]*|/\*.*?\*/|\b(?:b?r)(#*)".*?"\1|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])\'',
        re.S,
    )
    return pattern.sub(lambda m: "" if m.group(0).startswith("/") else '""', text)

def paths_in_use(body):
    """Expands `a::{b, c::{d, e}}` into a::b, a::c::d, a::c::e."""
    body = re.sub(r"\s+as\s+\w+", "", body)
    body = re.sub(r"\s+", "", body)
    def expand(prefix, s):
        out, depth, start = [], 0, 0
        parts = []
        for i, ch in enumerate(s):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(s[start:i])
                start = i + 1
        parts.append(s[start:])
        for part in parts:
            if not part:
                continue
            m = re.match(r"^(.*?)::\{(.*)\}$", part)
            if m:
                out += expand(prefix + m.group(1).split("::"), m.group(2))
            else:
                out.append(prefix + part.split("::"))
        return out
    m = re.match(r"^(.*?)::\{(.*)\}$", body)
    if m:
        return expand(m.group(1).split("::"), m.group(2))
    return [body.split("::")]

def resolve(module, segments):
    """Turns a path seen in `module` into an absolute module path, or None if it is external."""
    segments = [s for s in segments if s]
    if not segments:
        return None
    if segments[0] == "crate":
        return segments[1:]
    if segments[0] in ("super", "self"):
        base = list(module)
        while segments and segments[0] in ("super", "self"):
            if segments[0] == "super":
                base = base[:-1]
            segments = segments[1:]
        return base + segments
    return None

edges = {}
for module, path in files.items():
    text = strip(open(os.path.join(root, path), encoding="utf-8").read())
    # A file's own tests may reach anywhere; they are not part of the module's layering.
    text = re.split(r"#\[cfg\(test\)\]\s*mod\s+tests\b", text)[0]
    found = set()
    for m in re.finditer(r"\buse\s+([^;]+);", text):
        for segs in paths_in_use(m.group(1)):
            found.add(tuple(segs))
    for m in re.finditer(r"\b((?:crate|super)(?:::\w+)+)", text):
        found.add(tuple(m.group(1).split("::")))
    targets = set()
    for segs in found:
        absolute = resolve(list(module), list(segs))
        if absolute is None:
            continue
        target = file_for(absolute)
        # Reaching into one's own child module is not an edge back up.
        if target and target != path:
            target_module = module_of(os.path.join(root, target))
            if tuple(target_module[: len(module)]) == module and len(target_module) > len(module):
                continue
            targets.add(target)
    edges[path] = targets

def components_of(edges):
    """Strongly connected components (Tarjan) of more than one node: the circles."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found

def cycle_in(edges, component):
    """One concrete circle through the component, starting at its first node."""
    members = set(component)
    start = component[0]
    path, seen = [start], {start}

    def walk(v):
        for w in sorted(edges.get(v, ())):
            if w == start and len(path) > 1:
                return path + [start]
            if w in members and w not in seen:
                seen.add(w)
                path.append(w)
                circle = walk(w)
                if circle:
                    return circle
                path.pop()
        return None

    return walk(start)

# The same graph one level up: a file belongs to its top-level module (`session/dispatch.rs`
# to `session`), so two folders that import each other through different files show too.
def top(path):
    return path.split(os.sep)[0][:-3] if path.endswith(".rs") and os.sep not in path else path.split(os.sep)[0]

module_edges = {}
for source, targets in edges.items():
    for target in targets:
        if top(source) != top(target):
            module_edges.setdefault(top(source), set()).add(top(target))

allowed = set()
if os.path.exists(allow_path):
    for line in open(allow_path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            allowed.add(line)

sys.setrecursionlimit(10000)
failed, seen_any = False, False
for level, graph in (("files", edges), ("modules", module_edges)):
    for component in components_of(graph):
        seen_any = True
        circle = " -> ".join(cycle_in(graph, component))
        if circle in allowed or f"{root}: {circle}" in allowed:
            print(f"import cycle between {level} (allowed by {allow_path}): {circle}")
        else:
            print(f"import cycle between {level} of {root}: {circle}", file=sys.stderr)
            failed = True
if failed:
    sys.exit(1)
print("cycles: only allowed ones" if seen_any else f"cycles: none in {root}")
PY
status=0
for root in $roots; do
    python3 -c "$check" "$root" "$allow" || status=1
done
exit "$status"
