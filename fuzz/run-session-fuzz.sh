#!/bin/sh
# Rebuilds and runs the CLI's fuzz targets (`session`, `proxy_lines`, `bridge`) side by side at the lowest
# CPU priority, then prints libFuzzer's last counts, the CPU time and the crashes of each.
# Usage, from anywhere in the repository: fuzz/run-session-fuzz.sh [SECONDS per target, default 2400]
# Needs cargo-fuzz (`cargo install cargo-fuzz`); see tests/HOSTILE.md, section Fuzzing.
set -eu
secs=${1:-2400}
cd "$(dirname "$0")"
export RUSTC_BOOTSTRAP=1
# No sanitizer: the checker's crates forbid `unsafe`, an AddressSanitizer build of the generated
# crate takes about half an hour on two busy cores, and libFuzzer still catches panics, stack
# overflows (-handle_segv), timeouts and memory past -rss_limit_mb without it.
for t in session proxy_lines bridge; do
    nice -n 19 cargo fuzz build -O -s none "$t"
done
mkdir -p target/dict
cat dict/json.dict dict/session.dict > target/dict/session.dict
logs=target/session-fuzz
mkdir -p "$logs"
for t in session proxy_lines bridge; do
    mkdir -p "corpus/$t" "seeds/$t-large"
    nice -n 19 /usr/bin/time -v cargo fuzz run -O -s none "$t" "corpus/$t" "seeds/$t" "seeds/$t-large" -- \
        -fork=1 -ignore_crashes=1 -max_total_time="$secs" -max_len=131072 -timeout=60 -rss_limit_mb=2048 \
        -dict=target/dict/session.dict >"$logs/$t.log" 2>&1 &
done
wait
for t in session proxy_lines bridge; do
    echo "== $t"
    grep -E '^#[0-9]+: cov' "$logs/$t.log" | tail -1
    grep -E 'INFO: (exiting|fuzzed for)|Elapsed \(wall|User time|System time|Maximum resident' "$logs/$t.log" || true
    echo "corpus on disk: $(ls "corpus/$t" | wc -l) files"
    echo "artifacts: $(ls "artifacts/$t" 2>/dev/null | wc -l) files"
    ls "artifacts/$t" 2>/dev/null | sed 's/^/  /' || true
done
