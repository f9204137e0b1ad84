#!/usr/bin/env python3
"""Rebuilds the seed corpora under fuzz/seeds/<target>/ from the project's own data.

- parse, roundtrip, validate: the messages in fuzz/seeds/messages.jsonl (written for this
  project), each with the selector bytes the target reads first (module, type, options);
  type indices are looked up in each generated module's `TYPES` table.
- tree: the same messages and every line of the recorded sessions (bench/data/sessions), each with the
  module and type bytes (the envelope `JSONRPCMessage`), plus texts where the tree and a `Value` could part:
  repeated keys, unsorted keys, edge numbers and escapes.
- generator: every tests/goldens/*/input.ts (valid and malformed cases), the project's
  overlays, and a few inputs written here.

Run from the repository root: python3 fuzz/seeds/make_seeds.py
"""
import json
import os
import re

from seed_dirs import SEEDS, reset, write

MODULES = ["v2024_11_05", "v2025_03_26", "v2025_06_18", "v2025_11_25", "v2026_07_28", "draft", "resource_metadata", "apps"]


def types_of(module):
    text = open(f"generated/src/generated/{module}.rs", encoding="utf-8").read()
    block = text[text.index("pub const TYPES"):]
    block = block[: block.index("];")]
    return re.findall(r'\(\s*"([A-Za-z0-9_]+)",\s*"(?:struct|union|enum|alias)"', block)




def main():
    messages = [l.rstrip("\n").encode() for l in open(os.path.join(SEEDS, "messages.jsonl"), encoding="utf-8") if l.strip()]
    types = {m: types_of(m) for m in MODULES}

    parse = reset("parse")
    for i, m in enumerate(messages):
        write(parse, f"msg{i:02}.json", m)
    write(parse, "jsonl.json", b"\n".join(messages[:4]) + b"\n")
    write(parse, "bom.json", b"\xef\xbb\xbf" + messages[3])
    write(parse, "trailing.json", messages[3] + b" }")
    write(parse, "nested.json", b'{"jsonrpc":"2.0","method":"x","params":' + b'{"a":[' * 60 + b"1" + b"]}" * 60 + b"}")
    write(parse, "surrogate.json", b'{"jsonrpc":"2.0","method":"\\ud800","id":1}')
    write(parse, "numbers.json", b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":18446744073709551616,"progress":-0,"total":1e-400}}')

    roundtrip = reset("roundtrip")
    validate = reset("validate")
    for i, msg in enumerate(messages):
        obj = json.loads(msg)
        if isinstance(obj, dict) and "jsonrpc" in obj:
            for mi in (0, 3, 4, 6):
                # JSONRPCMessage is root 0 (typed) and a named type (JSON level).
                write(roundtrip, f"m{mi}-msg{i:02}-typed.json", bytes([mi, 0]) + msg)
                ti = types[MODULES[mi]].index("JSONRPCMessage")
                write(validate, f"m{mi}-msg{i:02}.json", bytes([mi, ti % 256, i % 4]) + msg)
        else:
            # Inner objects (content blocks, MCP Apps metadata): try them as every module's
            # types whose name fits, at the JSON level.
            for mi, module in enumerate(MODULES):
                for ti, name in enumerate(types[module]):
                    if ti >= 128:
                        break
                    if name in ("ContentBlock", "EmbeddedResource", "TextContent", "McpUiHostContext", "McpUiResourceMeta", "McpUiToolMeta", "McpUiInitializeResult", "McpUiInitializeRequest"):
                        write(roundtrip, f"m{mi}-msg{i:02}-{name}.json", bytes([mi, ti * 2 + 1]) + msg)
                        write(validate, f"m{mi}-msg{i:02}-{name}.json", bytes([mi, ti, 1]) + msg)

    tree = reset("tree")
    sessions = "bench/data/sessions"
    lines = list(messages)
    for f in sorted(os.listdir(sessions)):
        for l in open(os.path.join(sessions, f), "rb"):
            l = l.strip()
            if l:
                try:
                    obj = json.loads(l)
                except ValueError:
                    continue
                lines.append(json.dumps(obj.get("msg", obj), separators=(",", ":")).encode())
    lines += [
        b'{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/list"}',
        b'{"jsonrpc":"2.0","id":2,"result":{"tools":[],"contents":[]}}',
        b'{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"a","type":"image"}]}}',
        b'{"id":-0,"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1e308,"progressToken":18446744073709551616}}',
        b'{"jsonrpc":"2.0","method":"n\u00e9","params":{"_meta":{"a\/b":"\ud83d\ude00"}}}',
    ]
    for i, line in enumerate(lines):
        mi = (0, 3, 4, 6)[i % 4]
        ti = types[MODULES[mi]].index("JSONRPCMessage")
        write(tree, f"m{mi}-line{i:03}.json", bytes([mi, ti % 256]) + line)

    generator = reset("generator")
    for case in sorted(os.listdir("tests/goldens")):
        d = os.path.join("tests/goldens", case)
        for f in sorted(os.listdir(d)):
            if f.endswith(".ts"):
                write(generator, f"{case}-{f}", open(os.path.join(d, f), "rb").read())
    base = b"export interface A { x: string; y?: number; }\nexport type U = A | string;\n"
    for f in sorted(os.listdir("schema/overlays")):
        write(generator, f"overlay-{f}", base + b"\0" + open(os.path.join("schema/overlays", f), "rb").read())
    write(generator, "overlay-merge.ts", base + b"\0/** @overlay merge\n * @overlayRemove y */\nexport interface A { z: boolean; }\n")
    write(generator, "overlay-extend.ts", base + b"\0/** @overlay extend */\nexport type U = number;\n")
    write(generator, "import-base.ts", b'import { Shared } from "@fuzz/base";\nexport interface Uses { s: Shared; }\n')
    write(generator, "request.ts", b'export interface Request { method: string; params?: { [key: string]: unknown } }\n'
          b'export interface PingRequest extends Request { method: "ping"; }\nexport interface EmptyResult {}\n'
          b'export type ClientRequest = PingRequest;\n')


if __name__ == "__main__":
    main()
