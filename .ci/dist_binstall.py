#!/usr/bin/env python3
"""Checks `[package.metadata.binstall]` of cli/Cargo.toml against the archives `dist plan` announces.

Usage: dist_binstall.py PLAN_JSON CARGO_TOML            compare; prints each disagreement, exits 1 on any
       dist_binstall.py PLAN_JSON CARGO_TOML --self-test also proves that broken metadata is caught
       dist_binstall.py --bin-path PLAN_JSON CARGO_TOML TARGET   prints where binstall looks for the binary

`cargo binstall` fills the templates itself and never asks dist, so nothing else notices when the two drift apart
(a renamed package, another archive format, a new target): users would silently fall back to compiling.
"""
import copy
import json
import re
import sys
import tomllib

# binstall's pkg-fmt names for the archive suffixes dist writes.
FORMATS = {".tar.xz": "txz", ".tar.gz": "tgz", ".tar.zst": "tzstd", ".zip": "zip"}


def render(template, values):
    def one(m):
        key = m.group(1)
        if key not in values:
            raise KeyError(f"unknown binstall placeholder {{ {key} }} in {template!r}")
        return values[key]
    return re.sub(r"\{\s*([a-z-]+)\s*\}", one, template)


def settings(meta, target):
    merged = {k: v for k, v in meta.items() if k != "overrides"}
    merged.update(meta.get("overrides", {}).get(target, {}))
    return merged


def archives(plan, app):
    release = next(r for r in plan["releases"] if r["app_name"] == app)
    for name in release["artifacts"]:
        art = plan["artifacts"][name]
        if art["kind"] == "executable-zip":
            yield release, art


def suffix_of(name):
    return next((s for s in FORMATS if name.endswith(s)), None)


def bin_path(meta, package, target, art):
    suffix = suffix_of(art["name"])
    exe = next(a for a in art["assets"] if a["kind"] == "executable")
    # binstall's { binary-ext } is .exe on Windows targets; dist's asset name is the bare binary name.
    ext = ".exe" if "windows" in target else ""
    values = {"name": package["name"], "version": package["version"], "target": target, "bin": exe["name"],
              "binary-ext": ext, "archive-suffix": suffix, "archive-format": suffix.lstrip("."),
              "repo": package["repository"]}
    return render(settings(meta, target).get("bin-dir", ""), values)


def check(plan, manifest):
    package = manifest["package"]
    meta = package.get("metadata", {}).get("binstall")
    if not meta:
        return ["cli/Cargo.toml has no [package.metadata.binstall]"]
    problems = []
    seen = 0
    for release, art in archives(plan, package["name"]):
        hosting = release["hosting"]["github"]
        base = hosting["artifact_base_url"] + hosting["artifact_download_path"]
        for target in art["target_triples"]:
            seen += 1
            s = settings(meta, target)
            suffix = suffix_of(art["name"])
            if suffix is None:
                problems.append(f"{target}: archive {art['name']} has a suffix binstall cannot unpack")
                continue
            values = {"name": package["name"], "version": package["version"], "target": target,
                      "archive-suffix": suffix, "archive-format": suffix.lstrip("."), "binary-ext": "",
                      "repo": package["repository"]}
            try:
                url = render(s.get("pkg-url", ""), values)
                path = bin_path(meta, package, target, art)
            except KeyError as e:
                problems.append(f"{target}: {e.args[0]}")
                continue
            want = f"{base}/{art['name']}"
            if url != want:
                problems.append(f"{target}: binstall pkg-url gives {url}, dist uploads {want}")
            if s.get("pkg-fmt") != FORMATS[suffix]:
                problems.append(f"{target}: binstall pkg-fmt is {s.get('pkg-fmt')!r}, dist writes {suffix} ({FORMATS[suffix]!r})")
            # dist's tarballs hold a folder named after the archive; its zips hold the files at the top.
            exe = next(a for a in art["assets"] if a["kind"] == "executable")
            inside = exe["path"] if suffix == ".zip" else f"{art['name'][: -len(suffix)]}/{exe['path']}"
            if path != inside:
                problems.append(f"{target}: binstall bin-dir gives {path}, the archive holds {inside}")
    if seen == 0:
        problems.append(f"dist plan announces no archive of {package['name']}")
    return problems


def self_test(plan, manifest):
    """Each broken copy of the metadata must be reported, or the check proves nothing."""
    breakages = {
        "pkg-url without the v of the tag": ("pkg-url", "{ repo }/releases/download/{ version }/{ name }-{ target }{ archive-suffix }"),
        "pkg-url naming the binary, not the package": ("pkg-url", "{ repo }/releases/download/v{ version }/{ bin }-{ target }{ archive-suffix }"),
        "pkg-fmt gzip": ("pkg-fmt", "tgz"),
        "bin-dir without the archive's folder": ("bin-dir", "{ bin }{ binary-ext }"),
    }
    failures = []
    for what, (key, value) in breakages.items():
        broken = copy.deepcopy(manifest)
        broken["package"]["metadata"]["binstall"][key] = value
        if not check(plan, broken):
            failures.append(what)
    broken = copy.deepcopy(manifest)
    broken["package"]["metadata"]["binstall"]["overrides"] = {}
    if not check(plan, broken):
        failures.append("no Windows override (zip)")
    return failures


def main(argv):
    if argv[:1] == ["--bin-path"]:
        _, plan_file, toml_file, target = argv
        plan, manifest = json.load(open(plan_file)), tomllib.load(open(toml_file, "rb"))
        package = manifest["package"]
        art = next((a for _, a in archives(plan, package["name"]) if target in a["target_triples"]), None)
        if art is None:
            print(f"dist plan has no archive for {target} (dist-workspace.toml's targets)", file=sys.stderr)
            return 1
        print(art["name"], bin_path(package["metadata"]["binstall"], package, target, art))
        return 0
    plan_file, toml_file = argv[0], argv[1]
    plan, manifest = json.load(open(plan_file)), tomllib.load(open(toml_file, "rb"))
    problems = check(plan, manifest)
    for p in problems:
        print(f"binstall metadata: {p}", file=sys.stderr)
    if "--self-test" in argv[2:]:
        for what in self_test(plan, manifest):
            problems.append(what)
            print(f"binstall self-test: broken metadata not caught: {what}", file=sys.stderr)
    if not problems:
        targets = sorted(t for _, a in archives(plan, manifest["package"]["name"]) for t in a["target_triples"])
        print(f"binstall metadata matches dist's archives for {len(targets)} targets: {', '.join(targets)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
