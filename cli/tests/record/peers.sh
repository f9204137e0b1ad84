#!/usr/bin/env bash
# Records stdio sessions with real MCP servers other than the reference one, built on other
# SDKs (two on the Python SDK, three on the TypeScript SDK), for every protocol version the
# client proposes, and checks every message with `mcp-schema check --roundtrip`: typed
# reading, the validation rules, and writing back the same JSON. Nothing is committed: the
# servers' tool descriptions are their authors' text, so the recordings stay in a temporary
# folder (or KEEP=DIR).
#
# Needs node (18+), npm, python3 (3.10+) with venv, and the package registries.
#   bash cli/tests/record/peers.sh
set -euo pipefail

# Pinned servers. npm: TypeScript SDK servers; PyPI: Python SDK servers.
NPM_SERVERS=(
  "@modelcontextprotocol/server-memory@2026.8.31"
  "@modelcontextprotocol/server-filesystem@2026.8.31"
  "@modelcontextprotocol/server-sequential-thinking@2026.8.31"
)
PY_SERVERS=("mcp-server-time==2026.10.19" "mcp-server-fetch==2026.10.24")
VERSIONS=(2024-11-05 2025-03-26 2025-06-18 2025-11-25 2026-07-28)

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
out="${KEEP:-$tmp/sessions}"
mkdir -p "$out" "$tmp/files"
echo "hello" > "$tmp/files/a.txt"

(cd "$tmp" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund "${NPM_SERVERS[@]}" >/dev/null)
python3 -m venv "$tmp/py"
"$tmp/py/bin/pip" install --quiet "${PY_SERVERS[@]}"
nm="$tmp/node_modules/@modelcontextprotocol"

# One calls file per server: [method, params] pairs made after the listings.
cat > "$tmp/time.json" <<'JSON'
[["tools/call", {"name": "get_current_time", "arguments": {"timezone": "Europe/Paris"}}],
 ["tools/call", {"name": "convert_time", "arguments": {"source_timezone": "America/New_York", "time": "16:30", "target_timezone": "Asia/Tokyo"}}],
 ["tools/call", {"name": "get_current_time", "arguments": {"timezone": "Not/AZone"}}]]
JSON
cat > "$tmp/fetch.json" <<'JSON'
[["prompts/get", {"name": "fetch", "arguments": {"url": "http://127.0.0.1:9/"}}],
 ["tools/call", {"name": "fetch", "arguments": {"url": "http://127.0.0.1:9/"}}]]
JSON
cat > "$tmp/memory.json" <<'JSON'
[["tools/call", {"name": "create_entities", "arguments": {"entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}]}}],
 ["tools/call", {"name": "create_relations", "arguments": {"relations": [{"from": "Ada", "to": "Ada", "relationType": "knows"}]}}],
 ["tools/call", {"name": "read_graph", "arguments": {}}],
 ["tools/call", {"name": "search_nodes", "arguments": {"query": "Ada"}}]]
JSON
sed "s|FILES|$tmp/files|g" > "$tmp/fs.json" <<'JSON'
[["tools/call", {"name": "list_allowed_directories", "arguments": {}}],
 ["tools/call", {"name": "read_text_file", "arguments": {"path": "FILES/a.txt"}}],
 ["tools/call", {"name": "list_directory", "arguments": {"path": "FILES"}}],
 ["tools/call", {"name": "get_file_info", "arguments": {"path": "FILES/a.txt"}}],
 ["tools/call", {"name": "read_text_file", "arguments": {"path": "/etc/hostname"}}]]
JSON
cat > "$tmp/think.json" <<'JSON'
[["tools/call", {"name": "sequentialthinking", "arguments": {"thought": "First step", "nextThoughtNeeded": true, "thoughtNumber": 1, "totalThoughts": 2}}]]
JSON

for v in "${VERSIONS[@]}"; do
  rec() { node "$here/peer.mjs" "$v" "$out/$1-$v.jsonl" "$tmp/$1.json" -- "${@:2}"; }
  rec time "$tmp/py/bin/mcp-server-time" --local-timezone UTC
  rec fetch "$tmp/py/bin/mcp-server-fetch"
  rec memory env MEMORY_FILE_PATH="$tmp/memory-$v.json" node "$nm/server-memory/dist/index.js"
  rec fs node "$nm/server-filesystem/dist/index.js" "$tmp/files"
  rec think node "$nm/server-sequential-thinking/dist/index.js"
done

cargo build --quiet --release --manifest-path "$root/Cargo.toml" -p mcp-spec-types-cli
"${CARGO_TARGET_DIR:-$root/target}/release/mcp-schema" check --roundtrip --summary "$out"/*.jsonl
