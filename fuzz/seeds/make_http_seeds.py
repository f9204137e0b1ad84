#!/usr/bin/env python3
"""Rebuilds the seed corpus of the `proxy_http` fuzz target (fuzz/src/http.rs).

Each seed is `[knobs][Host]\\0[Origin]\\0[target]\\0[upstream URL]\\0[header lines]\\0[body]`: the
messages of the project's recorded sessions as request bodies (JSON) and as SSE answers, each with
one of the hosts, origins, request targets and upstream URLs below, which are what clients,
browsers, rebound pages and hosted servers send (loopback names, the attacker's name, `null`,
absolute and relative targets, 2024-11-05 `?sessionId=`, `?api_key=` upstreams, hop-by-hop headers).

Run from the repository root: python3 fuzz/seeds/make_http_seeds.py
"""
import glob
import json

from seed_dirs import reset, write

SOURCES = ["cli/tests/data/sessions/*.jsonl", "cli/tests/data/apps/*.jsonl", "cli/tests/data/tasks/*.jsonl"]
HOSTS = [b"127.0.0.1:8808", b"localhost:8808", b"[::1]:8808", b"attacker.example:8808", b"proxy.lan", b"", b"127.0.0.1:8808@evil", b"LOCALHOST.:9000"]
ORIGINS = [b"", b"http://127.0.0.1:8808", b"http://attacker.example:8808", b"null", b"https://app.example", b"http://localhost:3000", b"file://"]
TARGETS = [b"/mcp", b"/mcp?api_key=secret&page=2", b"/messages?sessionId=abc", b"//evil.example/x", b"/mcp?token=t&Api%2DKey=k&sig=s", b"/api/../x?"]
UPSTREAMS = [b"http://127.0.0.1:9/mcp", b"https://example.test/api/v1/mcp?api_key=K", b"http://[::1]:9/sse", b"https://example.test"]
HEADERS = b"content-type: application/json\r\naccept: application/json, text/event-stream\r\nconnection: keep-alive, x-private\r\nx-private: 1\r\nte: trailers\r\nmcp-session-id: s-1\r\nmcp-protocol-version: 2025-11-25"


def messages():
    for path in sorted(p for pattern in SOURCES for p in glob.glob(pattern)):
        with open(path, "rb") as f:
            for line in f:
                try:
                    obj = json.loads(line)
                except ValueError:
                    continue
                if isinstance(obj, dict) and "msg" in obj:
                    yield path, json.dumps(obj["msg"], separators=(",", ":")).encode()


def main():
    out = reset("proxy_http")
    n = 0
    for i, (path, msg) in enumerate(messages()):
        if i % 7:
            continue
        host, origin = HOSTS[n % len(HOSTS)], ORIGINS[n % len(ORIGINS)]
        target, upstream = TARGETS[n % len(TARGETS)], UPSTREAMS[n % len(UPSTREAMS)]
        # Knobs: JSON request/response (0x00) or an SSE answer (0x20), cut in pieces of 1 + 7k bytes.
        sse = n % 2 == 1
        knobs = (0x20 if sse else 0x00) | ((n % 5) << 3) | (n % 8)
        body = b"id: e%d\r\ndata: " % n + msg + b"\r\n\r\n" if sse else msg
        seed = bytes([knobs]) + b"\0".join([host, origin, target, upstream, HEADERS, body])
        write(out, "%04d.bin" % n, seed)
        n += 1
        if n >= 60:
            break
    print("proxy_http: %d seeds" % n)


main()
