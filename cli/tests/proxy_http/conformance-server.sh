#!/usr/bin/env bash
# The conformance suite's server scenarios against the repository's conformance server with
# `mcp-schema proxy --http` in front of it: one server and one proxy for the whole run (as
# examples/conformance/run.sh runs the server), each scenario pointed at the proxy. Prints one
# line per scenario, then what the proxy's checker found over the run and `N passed, N failed`.
#
#   conformance-server.sh SUITE_DIR MCP_SCHEMA CONFORMANCE_SERVER OUT [REV]
set -euo pipefail
suite="$(cd "$1" && pwd)"
bin="$2"
server_bin="$3"
out="$4"
rev="${5:-}"
here="$(cd "$(dirname "$0")" && pwd)"
"$here/../../../tests/npm-ci-once.sh" "$suite"
export PATH="$suite/node_modules/.bin:$PATH"
rm -rf "$out"
mkdir -p "$out"
"$server_bin" --port 0 2>"$out/server.log" &
server=$!
trap 'kill "$server" "${proxy:-}" 2>/dev/null || true' EXIT
url=""
for _ in $(seq 100); do
  url="$(grep -o 'http://127.0.0.1:[0-9]*/mcp' "$out/server.log" || true)"
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "the server did not start" >&2; exit 1; }
"$bin" proxy --http --listen 127.0.0.1:0 --upstream "$url" --record "$out/proxy.jsonl" --findings "$out/findings.txt" --summary 2>"$out/proxy.log" &
proxy=$!
port=""
for _ in $(seq 100); do
  port="$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$out/proxy.log")"
  [ -n "$port" ] && break
  sleep 0.05
done
[ -n "$port" ] || { echo "the proxy did not start" >&2; exit 1; }
if [ -z "$rev" ]; then
  scenarios="$(conformance list --server | sed -n 's/^  - \([^ ]*\).*/\1/p')"
  wire=()
else
  scenarios="$(conformance list --requirements "$rev" | awk '/^Server scenarios/ { on = 1; next } /^Client scenarios/ { on = 0; next } /^Run and reported/ { exit } on && /^  - / { print $2 }')"
  wire=(--spec-version "$rev" --force)
fi
passed=0
failed=0
for s in $scenarios; do
  dir="$out/$s"
  mkdir -p "$dir"
  status=0
  conformance server --url "http://127.0.0.1:$port/mcp" --scenario "$s" "${wire[@]}" -o "$dir" >"$dir/log.txt" 2>&1 || status=$?
  verdict="$(node -e '
    const fs = require("fs"), path = require("path");
    const find = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? find(path.join(d, e.name)) : e.name === "checks.json" ? [path.join(d, e.name)] : []);
    const checks = find(process.argv[1]).flatMap((f) => JSON.parse(fs.readFileSync(f, "utf8")));
    const bad = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
    console.log(checks.length === 0 ? "no results" : bad.length === 0 ? `ok ${checks.filter((c) => c.status === "SUCCESS").length}`
      : bad.map((c) => `${c.status} ${c.name}${c.errorMessage ? ": " + c.errorMessage : ""}`).join("; ").slice(0, 300));
  ' "$dir")"
  if [ "$status" -eq 0 ] && [[ "$verdict" == ok* ]]; then
    passed=$((passed + 1))
    echo "PASS ${rev:-all} $s (${verdict#ok } checks)"
  else
    failed=$((failed + 1))
    echo "FAIL ${rev:-all} $s (exit $status): $verdict"
  fi
done
kill -INT "$proxy"
proxy_status=0
wait "$proxy" || proxy_status=$?
echo "proxy exit $proxy_status; $(grep -c '"at":"request"' "$out/proxy.jsonl") exchanges; live: $(tail -n 1 "$out/findings.txt"); check: $("$bin" check "$out/proxy.jsonl" | tail -n 1)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$proxy_status" -eq 0 ]
