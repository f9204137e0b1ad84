//! End-to-end tests of `schema sync` and `schema pin` on scratch folders.

use super::repin::render_pins;
use super::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Unique scratch directory under the system temp dir, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(label: &str) -> Scratch {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "xtask-sync-{label}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn write(base: &Path, rel: &str, contents: &[u8]) {
    let p = join_rel(base, rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, contents).unwrap();
}

const FILES: &[(&str, &str, &[u8])] = &[
    (
        "schema/v1/schema.ts",
        "spec/schema/v1/schema.ts",
        b"export interface A {}\n",
    ),
    (
        "schema/v1/examples/A/a.json",
        "spec/schema/v1/examples/A/a.json",
        b"{}\n",
    ),
    (
        "package/dist/x.d.ts",
        "pkg/1.0.0/x.d.ts",
        b"declare const x: 1;\n",
    ),
];

/// A workspace root with a pins.toml for FILES, and a mirror holding them.
fn fixture() -> (Scratch, Scratch) {
    let root = Scratch::new("root");
    let mirror = Scratch::new("mirror");
    let file = |i: usize| {
        let (path, dest, body) = FILES[i];
        PinnedFile {
            path: path.into(),
            dest: dest.into(),
            sha256: sha256_hex(body),
        }
    };
    let pins = Pins {
        source: vec![
            PinnedSource {
                name: "spec".into(),
                kind: SourceKind::Git,
                repository: Some("https://github.com/example/spec".into()),
                commit: Some("0123456789abcdef0123456789abcdef01234567".into()),
                package: None,
                version: None,
                tarball_sha256: None,
                integrity: None,
                file: vec![file(1), file(0)],
            },
            PinnedSource {
                name: "pkg".into(),
                kind: SourceKind::Npm,
                repository: None,
                commit: None,
                package: Some("@example/pkg".into()),
                version: Some("1.0.0".into()),
                tarball_sha256: None,
                integrity: Some("sha512-AAAA".into()),
                file: vec![file(2)],
            },
        ],
    };
    write(&root.0, PINS_FILE, render_pins(&pins).as_bytes());
    for (_, dest, body) in FILES {
        write(&mirror.0, dest, body);
    }
    (root, mirror)
}

fn mirror_of(m: &Scratch) -> FetchFrom {
    FetchFrom::Mirror(m.0.clone())
}

#[test]
fn syncs_from_mirror_and_reruns_fast() {
    let (root, mirror) = fixture();
    let r = sync_from(&root.0, mirror_of(&mirror)).unwrap();
    assert_eq!((r.checked, r.fetched, r.current, r.removed), (3, 3, 0, 0));
    for (_, dest, body) in FILES {
        assert_eq!(
            fs::read(join_rel(&root.0.join(UPSTREAM_DIR), dest)).unwrap(),
            *body
        );
    }
    assert!(r.to_string().contains("3 pinned files verified"), "{r}");

    // Re-run: nothing to copy, so the mirror is not even needed.
    let r = sync_from(&root.0, FetchFrom::Mirror(root.0.join("no-such-mirror"))).unwrap();
    assert_eq!((r.fetched, r.current), (0, 3));

    // A locally modified file is replaced; unpinned files and empty dirs are removed.
    let up = root.0.join(UPSTREAM_DIR);
    write(&up, FILES[0].1, b"tampered");
    write(&up, "spec/schema/v0/old.ts", b"stale");
    let r = sync_from(&root.0, mirror_of(&mirror)).unwrap();
    assert_eq!((r.fetched, r.current, r.removed), (1, 2, 1));
    assert_eq!(fs::read(join_rel(&up, FILES[0].1)).unwrap(), FILES[0].2);
    assert!(!up.join("spec/schema/v0").exists());
}

#[test]
fn missing_file_is_named() {
    let (root, mirror) = fixture();
    fs::remove_file(join_rel(&mirror.0, FILES[2].1)).unwrap();
    let err = sync_from(&root.0, mirror_of(&mirror)).unwrap_err();
    match &err {
        SyncError::Files(p) => {
            assert!(matches!(&p[..], [FileProblem::Missing { dest, .. }] if dest == FILES[2].1))
        }
        other => panic!("unexpected error {other:?}"),
    }
    let msg = err.to_string();
    assert!(msg.contains("pkg/1.0.0/x.d.ts: missing"), "{msg}");
    // The other files were still installed.
    assert!(join_rel(&root.0.join(UPSTREAM_DIR), FILES[0].1).is_file());
}

#[test]
fn checksum_mismatch_is_named_with_both_hashes() {
    let (root, mirror) = fixture();
    write(&mirror.0, FILES[0].1, b"export interface B {}\n");
    let err = sync_from(&root.0, mirror_of(&mirror)).unwrap_err();
    let msg = err.to_string();
    let expected = sha256_hex(FILES[0].2);
    let actual = sha256_hex(b"export interface B {}\n");
    assert!(
        msg.contains("spec/schema/v1/schema.ts: sha256 mismatch"),
        "{msg}"
    );
    assert!(msg.contains(&format!("expected {expected}")), "{msg}");
    assert!(msg.contains(&format!("actual {actual}")), "{msg}");
    // The bad file was not installed.
    assert!(!join_rel(&root.0.join(UPSTREAM_DIR), FILES[0].1).exists());
}

#[test]
fn pin_from_rehashes_and_relists_examples() {
    let (root, mirror) = fixture();
    write(&mirror.0, FILES[0].1, b"changed\n");
    write(&mirror.0, "spec/schema/v1/examples/B/b.json", b"[]\n");
    write(&mirror.0, "spec/schema/v1/schema.mdx", b"not pinned\n");
    assert_eq!(pin_from(&root.0, &mirror.0).unwrap(), 4);
    let pins = Pins::load(&root.0).unwrap();
    let spec = &pins.source[0].file;
    let dests: Vec<&str> = spec.iter().map(|f| f.dest.as_str()).collect();
    assert_eq!(
        dests,
        [
            "spec/schema/v1/examples/A/a.json",
            "spec/schema/v1/examples/B/b.json",
            "spec/schema/v1/schema.ts"
        ]
    );
    assert_eq!(spec[1].path, "schema/v1/examples/B/b.json");
    assert_eq!(spec[2].sha256, sha256_hex(b"changed\n"));
    assert_eq!(pins.source[1].integrity.as_deref(), Some("sha512-AAAA"));
    // Idempotent, and the result syncs.
    let before = fs::read_to_string(root.0.join(PINS_FILE)).unwrap();
    pin_from(&root.0, &mirror.0).unwrap();
    assert_eq!(fs::read_to_string(root.0.join(PINS_FILE)).unwrap(), before);
    assert_eq!(sync_from(&root.0, mirror_of(&mirror)).unwrap().fetched, 4);
}

/// Without network and without a mirror, the error names the first file and the URL it could
/// not fetch, and a first sync leaves no empty `upstream/` behind.
#[test]
fn unreachable_network_names_file_and_url_and_leaves_no_upstream() {
    let (root, _mirror) = fixture();
    let pins = Pins::load(&root.0).unwrap();
    // A loopback port nothing listens on: refused at once, no traffic leaves the machine.
    let base = "https://127.0.0.1:9";
    std::env::set_var(GIT_RAW_BASE_ENV, base);
    let err = sync_pins(&root.0, &pins, FetchFrom::Network);
    std::env::remove_var(GIT_RAW_BASE_ENV);
    let err = err.unwrap_err().to_string();
    let url = format!("{base}/example/spec/0123456789abcdef0123456789abcdef01234567/schema/v1/examples/A/a.json");
    assert!(
        err.contains(&format!("could not fetch upstream/spec/schema/v1/examples/A/a.json from {url} (and 1 more file(s) of source `spec`")),
        "{err}"
    );
    assert!(err.contains("MCP_SCHEMA_MIRROR"), "{err}");
    assert!(!root.0.join(UPSTREAM_DIR).exists());
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The committed pin file parses, validates and is in canonical form.
#[test]
fn committed_pins_are_canonical() {
    let text = fs::read_to_string(workspace_root().join(PINS_FILE)).unwrap();
    let pins = Pins::parse(&text).unwrap();
    assert!(pins.file_count() > 0);
    assert_eq!(
        render_pins(&pins),
        text,
        "{PINS_FILE} is not in canonical (sorted, rendered) form"
    );
}

/// Copy the committed pins into a scratch root with only `kinds`.
fn scratch_with_committed_pins(label: &str, kinds: &[SourceKind]) -> (Scratch, Pins) {
    let root = Scratch::new(label);
    let mut pins = Pins::load(&workspace_root()).unwrap();
    pins.source.retain(|s| kinds.contains(&s.kind));
    write(&root.0, PINS_FILE, render_pins(&pins).as_bytes());
    (root, pins)
}

fn mirror_from_env() -> PathBuf {
    PathBuf::from(
        std::env::var_os(MIRROR_ENV)
            .unwrap_or_else(|| panic!("set {MIRROR_ENV} to run this test")),
    )
}

/// `MCP_SCHEMA_MIRROR=<dir> cargo test -p xtask -- --ignored real_mirror`
#[test]
#[ignore = "needs MCP_SCHEMA_MIRROR"]
fn real_mirror_matches_pins() {
    let mirror = mirror_from_env();
    let (root, pins) = scratch_with_committed_pins("real", &[SourceKind::Git, SourceKind::Npm]);
    let r =
        sync_from(&root.0, FetchFrom::Mirror(mirror.clone())).unwrap_or_else(|e| panic!("{e}"));
    println!("{r}");
    assert_eq!(
        (r.checked, r.fetched),
        (pins.file_count(), pins.file_count())
    );
    // Re-pinning from the same mirror reproduces the committed file exactly.
    pin_from(&root.0, &mirror).unwrap();
    let regenerated = fs::read_to_string(root.0.join(PINS_FILE)).unwrap();
    let committed = fs::read_to_string(workspace_root().join(PINS_FILE)).unwrap();
    if regenerated != committed {
        let keep = std::env::temp_dir().join("pins.regenerated.toml");
        fs::write(&keep, &regenerated).unwrap();
        panic!(
            "pin_from differs from the committed pins; see {}",
            keep.display()
        );
    }
}

/// `cargo test -p xtask -- --ignored network_npm` (needs the npm registry).
#[test]
#[ignore = "needs network + npm"]
fn network_npm_matches_pins() {
    let (root, pins) = scratch_with_committed_pins("npm", &[SourceKind::Npm]);
    let r = sync_from(&root.0, FetchFrom::Network).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.fetched, pins.file_count());
}

/// `cargo test -p xtask -- --ignored network_git` (needs raw.githubusercontent.com).
#[test]
#[ignore = "needs network + curl"]
fn network_git_matches_pins() {
    let (root, pins) = scratch_with_committed_pins("git", &[SourceKind::Git]);
    let r = sync_from(&root.0, FetchFrom::Network).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.fetched, pins.file_count());
}
