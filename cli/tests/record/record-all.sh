#!/usr/bin/env bash
# Re-records cli/tests/data/sessions/: installs the reference server
# @modelcontextprotocol/server-everything (pinned below) into a temporary folder
# with npm, and records one stdio session per protocol version the client proposes.
# Needs node (18+) and npm. Run from anywhere: `bash cli/tests/record/record-all.sh`.
set -euo pipefail

SERVER_VERSION="${SERVER_VERSION:-2026.8.31}"
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../data/sessions"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

(cd "$tmp" && npm init -y >/dev/null && npm install --silent "@modelcontextprotocol/server-everything@$SERVER_VERSION" >/dev/null)
server="$tmp/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

mkdir -p "$out"
for version in 2024-11-05 2025-03-26 2025-06-18 2025-11-25 2026-07-28; do
  node "$here/record.mjs" --protocol "$version" --out "$out/$version.jsonl" -- node "$server" stdio
done
