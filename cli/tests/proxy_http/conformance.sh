#!/usr/bin/env bash
# The conformance suite's client scenarios (not auth/) with `mcp-schema proxy --http` between the
# repository's conformance client and each scenario's server (proxied-client.sh). Prints one line
# per scenario: the suite's verdict, the proxy's exit status, what the proxy's live checker found
# and what `mcp-schema check` finds in its recording; then `N passed, N failed`. Exits 1 if a
# scenario fails or the proxy did not exit 0.
#
#   conformance.sh SUITE_DIR MCP_SCHEMA CONFORMANCE_CLIENT OUT [REV]
#
# SUITE_DIR is examples/conformance/suite (every client scenario) or suite-next with REV
# (2025-11-25 or 2026-07-28: the scenarios that set scores, run at that version).
set -euo pipefail
suite="$(cd "$1" && pwd)"
bin="$2"
client="$3"
out="$4"
rev="${5:-}"
here="$(cd "$(dirname "$0")" && pwd)"
"$here/../../../tests/npm-ci-once.sh" "$suite"
export PATH="$suite/node_modules/.bin:$PATH"
rm -rf "$out"
mkdir -p "$out"
if [ -z "$rev" ]; then
  scenarios="$(conformance list --client | sed -n 's/^  - \([^ ]*\).*/\1/p' | grep -v '^auth/' || true)"
  wire=()
else
  scenarios="$(conformance list --requirements "$rev" | awk '/^Server scenarios/ { on = 0; next } /^Client scenarios/ { on = 1; next } /^Run and reported/ { exit } on && /^  - / { print $2 }' | grep -v '^auth/' || true)"
  wire=(--spec-version "$rev" --force)
fi
passed=0
failed=0
for s in $scenarios; do
  dir="$out/$s"
  mkdir -p "$dir"
  status=0
  conformance client --command "$here/proxied-client.sh $bin $out $client" --scenario "$s" "${wire[@]}" -o "$dir/results" >"$dir/log.txt" 2>&1 || status=$?
  verdict="$(node -e '
    const fs = require("fs"), path = require("path");
    const find = (d) => fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? find(path.join(d, e.name)) : e.name === "checks.json" ? [path.join(d, e.name)] : []) : [];
    const checks = find(process.argv[1]).flatMap((f) => JSON.parse(fs.readFileSync(f, "utf8")));
    const bad = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
    console.log(checks.length === 0 ? "no results" : bad.length === 0 ? `ok ${checks.filter((c) => c.status === "SUCCESS").length}`
      : bad.map((c) => `${c.status} ${c.name}${c.errorMessage ? ": " + c.errorMessage : ""}`).join("; ").slice(0, 400));
  ' "$dir/results")"
  proxy_exit="$(cat "$dir/proxy-exit" 2>/dev/null || echo none)"
  live="$(tail -n 1 "$dir/findings.txt" 2>/dev/null || echo none)"
  offline="$("$bin" check "$dir/proxy.jsonl" 2>/dev/null | tail -n 1 || true)"
  exchanges="$(grep -c '"at":"request"' "$dir/proxy.jsonl" || true)"
  if [ "$status" -eq 0 ] && [[ "$verdict" == ok* ]] && [ "$proxy_exit" = 0 ]; then
    passed=$((passed + 1))
    echo "PASS ${rev:-all} $s (${verdict#ok } checks; proxy: $exchanges exchanges, live: $live; check: $offline)"
  else
    failed=$((failed + 1))
    echo "FAIL ${rev:-all} $s (exit $status, proxy exit $proxy_exit): $verdict; live: $live; check: $offline"
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
