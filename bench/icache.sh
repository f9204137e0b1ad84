#!/usr/bin/env bash
# Instruction-cache behaviour of one pass over a corpus, simulated by cachegrind: the reason the
# wall-clock ratios of typed reading are lower than its instruction-count ratios.
#   L1i misses  misses of this machine's L1 instruction cache per pass (N passes minus 0 passes, / N):
#               its geometry from /sys, or L1I=size,ways,line (bytes), e.g. L1I=32768,8,64
#   code lines  distinct 64-byte code lines one pass runs that the set-up did not (a 16 MiB cache,
#               so only first touches miss): the code footprint of reading the corpus once
#   instr       instructions per pass, for scale
#
#   bash bench/icache.sh            # needs valgrind; about 4 minutes
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cargo bench -p mcp-schema-bench --bench profile --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*\)).*/\1/p' | tail -1)
[ -x "$bin" ] || { echo "profile binary not found" >&2; exit 1; }
# The simulated L1i: this machine's when the kernel says, else 32 KiB, 8-way, 64-byte lines.
l1i_of_this_machine() {
  local d
  for d in /sys/devices/system/cpu/cpu0/cache/index*; do
    if [ "$(cat "$d/level" 2>/dev/null)" = 1 ] && [ "$(cat "$d/type" 2>/dev/null)" = Instruction ]; then
      echo "$(( $(sed 's/K$//' "$d/size") * 1024 )),$(cat "$d/ways_of_associativity"),$(cat "$d/coherency_line_size")"
      return
    fi
  done
  echo 32768,8,64
}
L1I=${L1I:-$(l1i_of_this_machine)}
echo "simulated L1i (size,ways,line): $L1I"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Prints "instructions L1i-misses" for one run.
run() {
  local cache=$1; shift
  valgrind --tool=cachegrind --cache-sim=yes --I1="$cache" --cachegrind-out-file="$out/cg" "$bin" "$@" >/dev/null 2>&1
  cg_annotate "$out/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", ""); print $1, $3 }'
}
printf '| corpus | contender | instructions per pass | L1i misses per pass | code lines per pass (KiB) |\n|---|---|---|---|---|\n'
while read -r corpus contender passes; do
  [ -z "$corpus" ] && continue
  read -r i0 m0 < <(run "$L1I" "$corpus" "$contender" parse 0)
  read -r i1 m1 < <(run "$L1I" "$corpus" "$contender" parse "$passes")
  read -r _ u0 < <(run 16777216,16,64 "$corpus" "$contender" parse 0)
  read -r _ u1 < <(run 16777216,16,64 "$corpus" "$contender" parse 1)
  lines=$((u1 - u0))
  printf '| %s | %s | %s | %s | %s (%s) |\n' "$corpus" "$contender" $(((i1 - i0) / passes)) $(((m1 - m0) / passes)) "$lines" $((lines * 64 / 1024))
done <<'CASES'
session-2025-11-25 value 200
session-2025-11-25 mcp-typed 200
session-2025-11-25 rmcp-typed 200
session-2025-11-25-bidi value 100
session-2025-11-25-bidi mcp-typed 100
session-2025-11-25-bidi rmcp-typed 100
spec-messages-2026-07-28 value 300
spec-messages-2026-07-28 mcp-typed 300
spec-messages-2026-07-28 mcp-specific 300
spec-messages-2026-07-28 rmcp-typed 300
tools-list-1000 value 2
tools-list-1000 mcp-typed 2
tools-list-1000 rmcp-typed 2
session-2025-11-25-mixed value 200
session-2025-11-25-mixed mcp-typed 200
session-2026-07-28-sdks value 200
session-2026-07-28-sdks mcp-typed 200
session-2025-11-25-tasks value 100
session-2025-11-25-tasks mcp-typed 100
session-2025-11-25-tasks rmcp-typed 100
session-2025-11-25-mixed-2 value 100
session-2025-11-25-mixed-2 mcp-typed 100
session-2026-07-28-official-sdks value 100
session-2026-07-28-official-sdks mcp-typed 100
CASES
