#!/usr/bin/env python3
"""Rebuilds the seed corpus of the `bridge` fuzz target from the project's recorded sessions.

Each session becomes the bridge's input (see `steps` in fuzz/src/bridge.rs): a first byte picking
`--to`, then its client lines (c2s) as the client's and its server lines (s2c) as the server's,
in the session's order. The server's answers carry the ids the bridge gives the requests it sends
upstream (`mcp-schema-bridge/N`, in order), so a seed gets past the first answers. Each session
is written once per `--to` of a few, and once with its client lines spread over four client
exchanges (stateless HTTP clients sharing one bridge). The project has no HAR files committed (the
HAR tests record theirs when they run); sessions over 20 KB are left out.

Run from the repository root: python3 fuzz/seeds/make_bridge_seeds.py
"""
import glob
import json
import struct

from seed_dirs import reset, write

SOURCES = ["cli/tests/data/sessions/*.jsonl", "cli/tests/data/apps/*.jsonl", "cli/tests/data/tasks/*.jsonl", "examples/sdk-clients/recorded/*.jsonl"]
SMALL = 20_000
# Indices into the CLI's VERSIONS: 2024-11-05, 2025-06-18, 2025-11-25, 2026-07-28.
TO = [0, 2, 3, 4]


def messages(raw):
    for line in raw.split(b"\n"):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict) and obj.get("dir") in ("c2s", "s2c") and "msg" in obj:
            yield obj["dir"], obj["msg"]


def bridge_input(to, msgs, spread):
    heads, body = [], b""
    ids, n = {}, 0
    for i, (d, m) in enumerate(msgs):
        if d == "c2s" and isinstance(m, dict) and "method" in m and "id" in m:
            n += 1
            ids[json.dumps(m["id"])] = "mcp-schema-bridge/%d" % n
        if d == "s2c" and isinstance(m, dict) and "method" not in m and json.dumps(m.get("id")) in ids:
            m = dict(m, id=ids[json.dumps(m.get("id"))])
        data = json.dumps(m, separators=(",", ":")).encode()[:65535]
        flags = 0 if d == "c2s" else 1
        if spread and d == "c2s":
            flags |= (i % 4) << 1
        heads.append(struct.pack("<BH", flags, len(data)))
        body += data
    heads = heads[:65535]
    return bytes([to]) + struct.pack("<H", len(heads)) + b"".join(heads) + body


def main():
    out = reset("bridge")
    for pattern in SOURCES:
        for f in sorted(glob.glob(pattern)):
            raw = open(f, "rb").read()
            if len(raw) >= SMALL:
                continue
            msgs = list(messages(raw))
            name = f.replace("/", "-").removesuffix(".jsonl")
            for to in TO:
                write(out, "%s-to%d.bin" % (name, to), bridge_input(to, msgs, False))
            write(out, name + "-spread.bin", bridge_input(TO[-1], msgs, True))


if __name__ == "__main__":
    main()
