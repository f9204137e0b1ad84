#!/usr/bin/env bash
# Instructions per pass over a corpus, counted by callgrind: a second view of the criterion
# numbers that does not move with the machine's load. Each case runs the `profile` bench
# binary twice (PASSES passes and 0 passes) and reports the difference divided by PASSES.
#
#   bash bench/callgrind.sh            # needs valgrind
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cargo bench -p mcp-schema-bench --bench profile --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*\)).*/\1/p' | tail -1)
[ -x "$bin" ] || { echo "profile binary not found" >&2; exit 1; }
out=$(mktemp -d)
ir() { valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$bin" "$@" 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
declare -A base
printf '| corpus | contender | operation | instructions per pass | per input byte |\n|---|---|---|---|---|\n'
while read -r corpus contender op passes; do
  [ -z "$corpus" ] && continue
  key="$op"; [ "$op" = parse ] || key="$corpus.$contender.$op"
  [ -n "${base[$key]:-}" ] || base[$key]=$(ir "$corpus" "$contender" "$op" 0)
  total=$(ir "$corpus" "$contender" "$op" "$passes")
  bytes=$("$bin" "$corpus" "$contender" "$op" 0 | sed -n 's/^corpus-bytes //p')
  per=$(( (total - base[$key]) / passes ))
  printf '| %s | %s | %s | %s | %s |\n' "$corpus" "$contender" "$op" "$per" "$(awk -v a="$per" -v b="$bytes" 'BEGIN { printf "%.1f", a / b }')"
done <<'CASES'
session-2025-11-25 ignored parse 500
session-2025-11-25 value parse 500
session-2025-11-25 mcp-envelope parse 500
session-2025-11-25 mcp-typed parse 500
session-2025-11-25 mcp-typed-sj parse 500
session-2025-11-25 rmcp-typed parse 500
session-2025-11-25 rms-typed parse 500
session-2025-11-25 x validate 500
spec-messages-2026-07-28 value parse 1000
spec-messages-2026-07-28 mcp-envelope parse 1000
spec-messages-2026-07-28 mcp-typed parse 1000
spec-messages-2026-07-28 mcp-typed-sj parse 1000
spec-messages-2026-07-28 mcp-typed-tree parse 1000
spec-messages-2026-07-28 mcp-specific parse 1000
spec-messages-2026-07-28 rmcp-typed parse 1000
tools-list-1000 value parse 5
tools-list-1000 mcp-envelope parse 5
tools-list-1000 mcp-typed parse 5
tools-list-1000 mcp-typed-sj parse 5
tools-list-1000 mcp-specific parse 5
tools-list-1000 rmcp-specific parse 5
tools-list-1000 rms-specific parse 5
session-2025-11-25-bidi value parse 200
session-2025-11-25-bidi mcp-typed parse 200
session-2025-11-25-bidi mcp-typed-sj parse 200
session-2025-11-25-bidi mcp-typed-tree parse 200
session-2025-11-25-bidi rmcp-typed parse 200
session-2025-11-25-bidi rms-typed parse 200
session-2025-11-25-bidi x validate 200
spec-messages-2026-07-28 x validate 1000
tools-list-1000 rmcp-typed parse 5
tools-list-1000 rms-typed parse 5
tools-list-1000 x validate 5
resources-read-10mb value parse 2
resources-read-10mb ignored parse 2
resources-read-10mb mcp-typed parse 2
resources-read-10mb mcp-typed-sj parse 2
resources-read-10mb mcp-specific parse 2
resources-read-10mb rmcp-typed parse 2
resources-read-10mb x validate 2
session-2025-11-25 value write 500
session-2025-11-25 mcp-typed write 500
session-2025-11-25 value-mcpw write 500
session-2025-11-25 mcp-typed-mcpw write 500
tools-list-1000 value write 5
tools-list-1000 mcp-specific write 5
tools-list-1000 value-mcpw write 5
tools-list-1000 mcp-typed-mcpw write 5
tools-list-1000 mcp-specific-mcpw write 5
session-2025-11-25-mixed value parse 500
session-2025-11-25-mixed mcp-typed parse 500
session-2025-11-25-mixed mcp-typed-tree parse 500
session-2025-11-25-mixed rmcp-typed parse 500
session-2025-11-25-mixed x validate 500
session-2025-11-25-mixed value write 500
session-2025-11-25-mixed mcp-typed-mcpw write 500
session-2026-07-28-sdks value parse 500
session-2026-07-28-sdks mcp-typed parse 500
session-2026-07-28-sdks mcp-typed-tree parse 500
session-2026-07-28-sdks rmcp-typed parse 500
session-2026-07-28-sdks x validate 500
session-2026-07-28-sdks value write 500
session-2026-07-28-sdks mcp-typed-mcpw write 500
resources-read-10mb value write 2
resources-read-10mb mcp-typed-mcpw write 2
session-2024-11-05-varied value parse 200
session-2024-11-05-varied mcp-typed parse 200
session-2025-11-25-tasks value parse 200
session-2025-11-25-tasks mcp-typed parse 200
session-2025-11-25-tasks rmcp-typed parse 200
session-2025-11-25-tasks x validate 200
session-2025-11-25-tasks value write 200
session-2025-11-25-tasks mcp-typed-mcpw write 200
session-2025-11-25-mixed-2 value parse 200
session-2025-11-25-mixed-2 mcp-typed parse 200
session-2025-11-25-mixed-2 rmcp-typed parse 200
session-2025-11-25-mixed-2 x validate 200
session-2026-07-28-official-sdks value parse 200
session-2026-07-28-official-sdks mcp-typed parse 200
session-2026-07-28-official-sdks rmcp-typed parse 200
session-2026-07-28-official-sdks x validate 200
session-2026-07-28-official-sdks value write 200
session-2026-07-28-official-sdks mcp-typed-mcpw write 200
CASES
rm -rf "$out"
