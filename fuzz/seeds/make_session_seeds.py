#!/usr/bin/env python3
"""Rebuilds the seed corpora of the CLI's fuzz targets from the project's recorded sessions.

- session: each recorded session whole (wrapper lines `{"dir":..,"msg":..}`), plus the first
  lines of the longer ones.
- proxy_lines: each session as the proxy's two pipes carry it: the host's bytes (c2s) and the
  server's (s2c), one chunk per line in the session's order, with the chunk header the target
  reads first (see `proxy_chunks` in fuzz/src/cli.rs); then variants cut at odd places, with
  CRLF, blank lines and a last line without `\n`.

Sessions under 20 KB go to fuzz/seeds/<target>/ (committed); the longer ones
(bench/data/sessions) go whole to fuzz/seeds/<target>-large/ (git-ignored).

fuzz/regressions/proxy_lines/ holds inputs written here that failed a property on the code of
issue 27 (a server line starting with a byte-order mark and shaped like a client wrapper line).

Run from the repository root: python3 fuzz/seeds/make_session_seeds.py
"""
import glob
import json
import os
import struct

from seed_dirs import reset, write

SOURCES = ["cli/tests/data/sessions/*.jsonl", "cli/tests/data/apps/*.jsonl", "cli/tests/data/tasks/*.jsonl", "examples/sdk-clients/recorded/*.jsonl", "bench/data/sessions/*.jsonl"]
SMALL = 20_000




def wire(line):
    """The direction and the message's bytes of one wrapper line, as they travelled."""
    for d in ("c2s", "s2c"):
        head = b'{"dir":"%s","msg":' % d.encode()
        if line.startswith(head) and line.endswith(b"}"):
            return d, line[len(head):-1]
    obj = json.loads(line)
    if obj.get("dir") not in ("c2s", "s2c"):
        return None
    return obj["dir"], json.dumps(obj["msg"], ensure_ascii=False, separators=(",", ":")).encode()


def proxy_input(chunks):
    """`[count u16][count x (dir, len u16)][bytes]`; chunks longer than 65535 bytes are cut."""
    heads, body = [], b""
    for d, data in chunks:
        for i in range(0, len(data), 65535):
            part = data[i:i + 65535]
            heads.append(struct.pack("<BH", 0 if d == "c2s" else 1, len(part)))
            body += part
    heads = heads[:65535]
    return struct.pack("<H", len(heads)) + b"".join(heads) + body


def main():
    session, session_large = reset("session"), reset("session-large")
    proxy, proxy_large = reset("proxy_lines"), reset("proxy_lines-large")
    for pattern in SOURCES:
        for f in sorted(glob.glob(pattern)):
            raw = open(f, "rb").read()
            name = f.replace("/", "-").removesuffix(".jsonl")
            small = len(raw) < SMALL
            write(session if small else session_large, name + ".jsonl", raw)
            lines = [l for l in raw.split(b"\n") if l.strip()]
            if not small:
                # The start of a long session (initialize, the listings) stays small.
                head = b"\n".join(lines[:12]) + b"\n"
                write(session, name + "-head.jsonl", head[:SMALL])
            msgs = [m for m in (wire(l) for l in lines) if m]
            per_line = [(d, m + b"\n") for d, m in msgs]
            write(proxy if small else proxy_large, name + ".bin", proxy_input(per_line))
            if small:
                # One stream per pipe cut every 7 bytes; CRLF and blank lines; no final `\n`.
                streams = {d: b"".join(m for dd, m in per_line if dd == d) for d in ("c2s", "s2c")}
                odd = [(d, s[i:i + 7]) for d in ("c2s", "s2c") for s in [streams[d]] for i in range(0, min(len(s), 3000), 7)]
                write(proxy, name + "-cut7.bin", proxy_input(odd))
                crlf = [(d, m.replace(b"\n", b"\r\n") + (b"\n  \t\r\n" if i % 3 == 0 else b"")) for i, (d, m) in enumerate(per_line[:10])]
                write(proxy, name + "-crlf.bin", proxy_input(crlf))
                tail = per_line[:6] + [(per_line[6][0], per_line[6][1].rstrip(b"\n"))] if len(per_line) > 6 else per_line
                write(proxy, name + "-tail.bin", proxy_input(tail))

    # Issue 27, item 5: a server line with a byte-order mark, shaped like a client's wrapper line,
    # was read as the client's request; the line's direction is its pipe.
    # The folder also keeps inputs the fuzzer found (committed by hand): write these two, delete nothing.
    regressions = os.path.join("fuzz", "regressions", "proxy_lines")
    os.makedirs(regressions, exist_ok=True)
    wrapped = b'\xef\xbb\xbf{"dir":"c2s","msg":{"jsonrpc":"2.0","id":1,"method":"ping"}}\n'
    write(regressions, "bom-wrapper-s2c.bin", proxy_input([("s2c", wrapped)]))
    plain = b'\xef\xbb\xbf{"jsonrpc":"2.0","id":1,"method":"ping"}\n'
    write(regressions, "bom-message-c2s.bin", proxy_input([("c2s", plain)]))


if __name__ == "__main__":
    main()
