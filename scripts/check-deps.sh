#!/usr/bin/env bash
# Dependency checks that work on these machines (run by `make lint`; docs/testing.md):
# - cargo deny: licences, bans and sources of the Rust dependency tree (deny.toml). Advisories
#   are not checked: the RustSec database cannot be fetched here.
# - npm audit of the UI's production dependencies. Known vulnerabilities fail the check; an
#   audit endpoint that does not answer (some networks let only GET through to the registry) is
#   said plainly and does not.
set -euo pipefail
cd "$(dirname "$0")/.."

# Duplicate versions are warnings (`cargo deny check bans` lists them); only errors are shown.
cargo deny --log-level error check licenses bans sources

report="$(cd ui && npm audit --omit=dev --json 2>/dev/null || true)"
NPM_AUDIT_REPORT="$report" node - <<'JS'
let report;
try {
  report = JSON.parse(process.env.NPM_AUDIT_REPORT || "");
} catch {
  report = null;
}
const counts = report?.metadata?.vulnerabilities;
if (!counts) {
  const why = report?.message || "no report";
  console.log(`npm audit: NOT CHECKED, the registry's audit endpoint did not answer (${why})`);
  process.exit(0);
}
const found = Object.entries(counts).filter(([level, n]) => level !== "total" && n > 0);
if (found.length === 0) {
  console.log("npm audit (ui, production dependencies): no known vulnerabilities");
  process.exit(0);
}
console.error(`npm audit (ui, production dependencies): ${found.map(([l, n]) => `${n} ${l}`).join(", ")}`);
for (const [name, v] of Object.entries(report.vulnerabilities || {})) {
  const via = v.via.map((x) => (typeof x === "string" ? x : `${x.title} ${x.url}`)).join("; ");
  console.error(`  ${name} ${v.range} (${v.severity}): ${via}`);
}
console.error("Run `cd ui && npm audit --omit=dev` for the fixes.");
process.exit(1);
JS
