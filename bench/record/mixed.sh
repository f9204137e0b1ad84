#!/usr/bin/env bash
# Records bench/data/sessions/2025-11-25-mixed-servers.jsonl: one 2025-11-25 stdio session with each of two
# servers from other SDKs, one after the other in one file: the knowledge-graph server on the TypeScript SDK and
# the time server on the Python SDK. Both were picked because everything they send is short (tool descriptions
# of a sentence, results that echo the calls' own data), so the recording carries no long prose of theirs.
# The calls are the same as in cli/tests/record/peers.sh, plus a few more for the graph server.
#
# Needs node (18+), npm, python3 (3.10+) with venv, and the package registries.
#   bash bench/record/mixed.sh
set -euo pipefail

NPM_SERVER="@modelcontextprotocol/server-memory@2026.8.31"
PY_SERVER="mcp-server-time==2026.10.19"
VERSION=2025-11-25

source "$(dirname "$0")/common.sh"
out="$root/bench/data/sessions/$VERSION-mixed-servers.jsonl"
npm_install "$NPM_SERVER"
venv_install "$PY_SERVER"

cat > "$tmp/memory.json" <<'JSON'
[["tools/call", {"name": "create_entities", "arguments": {"entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}, {"name": "Engine", "entityType": "machine", "observations": ["analytical"]}]}}],
 ["tools/call", {"name": "create_relations", "arguments": {"relations": [{"from": "Ada", "to": "Engine", "relationType": "programmed"}]}}],
 ["tools/call", {"name": "add_observations", "arguments": {"observations": [{"entityName": "Ada", "contents": ["born 1815"]}]}}],
 ["tools/call", {"name": "read_graph", "arguments": {}}],
 ["tools/call", {"name": "search_nodes", "arguments": {"query": "Ada"}}],
 ["tools/call", {"name": "open_nodes", "arguments": {"names": ["Engine"]}}]]
JSON
cat > "$tmp/time.json" <<'JSON'
[["tools/call", {"name": "get_current_time", "arguments": {"timezone": "Europe/Paris"}}],
 ["tools/call", {"name": "convert_time", "arguments": {"source_timezone": "America/New_York", "time": "16:30", "target_timezone": "Asia/Tokyo"}}],
 ["tools/call", {"name": "get_current_time", "arguments": {"timezone": "Not/AZone"}}]]
JSON

rec() { node "$root/cli/tests/record/peer.mjs" "$VERSION" "$tmp/$1.jsonl" "$tmp/$1.json" -- "${@:2}"; }
rec memory env MEMORY_FILE_PATH="$tmp/graph.json" node "$tmp/node_modules/@modelcontextprotocol/server-memory/dist/index.js"
rec time "$tmp/py/bin/mcp-server-time" --local-timezone UTC
cat "$tmp/memory.jsonl" "$tmp/time.jsonl" > "$out"
echo "wrote $out ($(wc -l < "$out") messages)"
