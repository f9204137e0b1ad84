#!/usr/bin/env bash
# Installs the npm packages pinned in DIR (`npm ci`) unless DIR's node_modules already holds an
# install of this package-lock.json, one install at a time per folder across processes: `npm ci`
# empties node_modules first, under the feet of whoever is running Node from it, and
# `cargo xtask test` runs test executables and the conformance suite side by side, some of them
# from the same folder. Every test and script that installs pinned npm packages goes through here.
#
#   tests/npm-ci-once.sh DIR
#
# The lock is `flock` on DIR/.npm-ci.lock where `flock` exists (Linux); elsewhere the install runs
# unlocked, as it did before.
set -euo pipefail
dir="$(cd "$1" && pwd)"
stamp="$dir/node_modules/.npm-ci-stamp"
if command -v flock >/dev/null; then
  exec 9>"$dir/.npm-ci.lock"
  flock 9
fi
if [ -f "$stamp" ] && cmp -s "$dir/package-lock.json" "$stamp"; then
  exit 0
fi
(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
cp "$dir/package-lock.json" "$stamp"
