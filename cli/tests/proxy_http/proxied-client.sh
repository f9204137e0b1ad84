#!/usr/bin/env bash
# A conformance client command with `mcp-schema proxy --http` in front of the suite's server:
# the suite appends its server's URL to the command it runs; this starts the proxy with that URL
# as the upstream, runs the client against the proxy (the same path and query), then stops the
# proxy with SIGINT. The proxy's recording, findings, log and exit status go to OUT/SCENARIO/.
#
#   proxied-client.sh MCP_SCHEMA OUT CLIENT [ARGS...] URL
set -u
bin="$1"
out="$2/${MCP_CONFORMANCE_SCENARIO:-scenario}"
shift 2
url="${*: -1}"
client=("${@:1:$#-1}")
mkdir -p "$out"
"$bin" proxy --http --listen 127.0.0.1:0 --upstream "$url" --record "$out/proxy.jsonl" --findings "$out/findings.txt" 2>"$out/proxy.log" &
proxy=$!
port=""
for _ in $(seq 200); do
  port="$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$out/proxy.log")"
  [ -n "$port" ] && break
  sleep 0.05
done
[ -n "$port" ] || { echo "the proxy did not start: $(cat "$out/proxy.log")" >&2; kill "$proxy"; exit 1; }
rest="${url#*://}"
path=""
[[ "$rest" == */* ]] && path="/${rest#*/}"
status=0
"${client[@]}" "http://127.0.0.1:$port$path" || status=$?
kill -INT "$proxy"
proxy_status=0
wait "$proxy" || proxy_status=$?
echo "$proxy_status" >"$out/proxy-exit"
exit "$status"
