#!/bin/sh
# Non-blank lines that are not `//` comments (doc comments included), for each Rust file given.
# From the workspace root: examples/rmcp-compare/count-lines.sh examples/src/bin/two_tools.rs examples/rmcp-compare/src/main.rs
for f in "$@"; do
    awk '{ t = $0; sub(/^[ \t]+/, "", t) } t != "" && substr(t, 1, 2) != "//" { n++ } END { printf "%d %s\n", n, FILENAME }' "$f"
done
