#!/bin/sh
# End to end against rmcp: builds the two-tool server on the engine and on rmcp 3.11 (stdio, and Streamable
# HTTP where examples/src/bin/http_server.rs exists) and the load generator (load/), all in release, then
# prints one table: tools/call `convert` round trips per second with 1 and 16 clients, p50/p99 latency, the
# server's CPU time per call and its peak memory (VmHWM), each the median of RUNS runs; then binary sizes
# and line counts. With --cold it also times a cold release build of each server (user + sys CPU seconds,
# an empty target directory each time, one after the other, nice'd), the median of COLD_RUNS; --cold-only
# does only that.
#
#   examples/rmcp-compare/e2e.sh [--cold | --cold-only]
#   env: RUNS=3 CALLS=20000 WARMUP=200 (per client) COLD_RUNS=3 E2E_TARGET=<dir> (default rmcp-compare/target/e2e)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
target=${E2E_TARGET:-$here/target/e2e}
runs=${RUNS:-3} calls=${CALLS:-20000} warmup=${WARMUP:-200} cold_runs=${COLD_RUNS:-3}
cold=no loads=yes
case "${1:-}" in
--cold) cold=yes ;;
--cold-only) cold=yes loads=no ;;
esac
has_http=no
if [ -f "$root/examples/src/bin/http_server.rs" ]; then has_http=yes; fi

# The median of KEY's values in the `key=value` lines on stdin.
median() {
    sed -n "s/.*[[:space:]]$1=\([0-9.]*\).*/\1/p" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

build() { # manifest target-dir [cargo args...]
    manifest=$1 dir=$2
    shift 2
    nice -n 5 cargo build -q --release --manifest-path "$manifest" --target-dir "$dir" "$@"
}

row() { # label transport clients server-binary
    out=$(mktemp)
    http_flag=
    if [ "$2" = HTTP ]; then http_flag=--http; fi
    i=0
    while [ $i -lt "$runs" ]; do
        # The server's stderr (an HTTP server's "listening on") is shown only when the run fails.
        if ! "$load" $http_flag --clients "$3" --calls "$calls" --warmup "$warmup" "$4" >"$out.run" 2>"$out.err"; then
            cat "$out.err" >&2
            exit 1
        fi
        sed 's/^/ /' "$out.run" >>"$out"
        i=$((i + 1))
    done
    printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$2" "$3" \
        "$(median calls_per_s <"$out")" "$(median p50_us <"$out")" "$(median p99_us <"$out")" \
        "$(median server_cpu_us_per_call <"$out")" "$(median vmhwm_kib <"$out")"
    rm -f "$out" "$out.run" "$out.err"
}

lines() { "$here/count-lines.sh" "$1" | cut -d' ' -f1; }

# Packages the server's build compiles (itself included; normal and build dependencies, proc macros too).
packages() { # manifest [cargo args...]
    manifest=$1
    shift
    cargo tree -q --manifest-path "$manifest" "$@" -e normal,build --prefix none | sed 's/ (.*//' | sort -u | wc -l
}

loads() {
    engine_features=
    if [ $has_http = yes ]; then engine_features="--features http"; fi
    echo "building (release)..." >&2
    build "$here/load/Cargo.toml" "$target/load"
    # shellcheck disable=SC2086 # the feature flags are words
    build "$here/engine/Cargo.toml" "$target/engine" --bins $engine_features
    build "$here/Cargo.toml" "$target/rmcp" --bins --features http
    load=$target/load/release/mcp-load
    engine_stdio=$target/engine/release/two-tools-engine
    engine_http=$target/engine/release/two-tools-engine-http
    rmcp_stdio=$target/rmcp/release/two-tools-rmcp
    rmcp_http=$target/rmcp/release/two-tools-rmcp-http

    echo "load: $(uptime)"
    echo
    echo "| server | transport | clients | calls/s | p50 µs | p99 µs | server CPU µs/call | peak RSS KiB |"
    echo "|---|---|---|---|---|---|---|---|"
    for clients in 1 16; do
        row engine stdio $clients "$engine_stdio"
        row "rmcp 3.11.0" stdio $clients "$rmcp_stdio"
        if [ $has_http = yes ]; then row engine HTTP $clients "$engine_http"; fi
        row "rmcp 3.11.0" HTTP $clients "$rmcp_http"
    done
    echo
    echo "load: $(uptime)"
    echo
    echo "| server | release binary, bytes | source lines | packages built |"
    echo "|---|---|---|---|"
    echo "| engine stdio | $(wc -c <"$engine_stdio") | $(lines "$root/examples/src/bin/two_tools.rs") | $(packages "$here/engine/Cargo.toml") |"
    echo "| rmcp stdio | $(wc -c <"$rmcp_stdio") | $(lines "$here/src/main.rs") | $(packages "$here/Cargo.toml") |"
    if [ $has_http = yes ]; then
        echo "| engine HTTP | $(wc -c <"$engine_http") | $(lines "$root/examples/src/bin/http_server.rs") | $(packages "$here/engine/Cargo.toml" --features http) |"
    fi
    echo "| rmcp HTTP | $(wc -c <"$rmcp_http") | $(( $(lines "$here/src/bin/two-tools-rmcp-http.rs") + $(lines "$root/examples/src/rmcp_two_tools.rs") )) | $(packages "$here/Cargo.toml" --features http) |"
}

# `cpu=S`: user + sys seconds of one cold release build in an empty target directory.
cold_cpu() { # manifest [cargo args...]
    dir=$(mktemp -d)
    manifest=$1
    shift
    /usr/bin/time -f '%U %S' -o "$dir.time" nice -n 5 cargo build -q --release --manifest-path "$manifest" --target-dir "$dir" "$@"
    awk '{ printf " cpu=%.1f\n", $1 + $2 }' "$dir.time"
    rm -rf "$dir" "$dir.time"
}

cold_row() { # label manifest [cargo args...]
    label=$1
    shift
    out=$(mktemp)
    i=0
    while [ $i -lt "$cold_runs" ]; do
        cold_cpu "$@" >>"$out"
        i=$((i + 1))
    done
    echo "| $label | $(median cpu <"$out") | $(sed -n 's/.*cpu=//p' "$out" | tr '\n' ' ')|"
    rm -f "$out"
}

cold_builds() {
    echo
    echo "load: $(uptime)"
    echo
    echo "| cold release build | CPU s (user + sys), median | each run |"
    echo "|---|---|---|"
    cold_row "engine stdio" "$here/engine/Cargo.toml" --bin two-tools-engine
    cold_row "rmcp stdio" "$here/Cargo.toml" --bin two-tools-rmcp
    if [ $has_http = yes ]; then cold_row "engine HTTP" "$here/engine/Cargo.toml" --features http --bin two-tools-engine-http; fi
    cold_row "rmcp HTTP" "$here/Cargo.toml" --features http --bin two-tools-rmcp-http
    echo
    echo "load: $(uptime)"
}

if [ $loads = yes ]; then loads; fi
if [ $cold = yes ]; then cold_builds; fi
