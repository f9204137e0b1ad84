//! The Skills extension (`io.modelcontextprotocol/skills`) between real peers, recorded through
//! `mcp-schema proxy --record` over stdio and Streamable HTTP: the TypeScript SDK 2.4 (`SkillsExtension` from a folder as the
//! server, `SkillsClient` as the host; cli/tests/skills_real/ts-server.mjs and ts-client.mjs, pinned in
//! cli/tests/skills_real/package.json) and rmcp 3.11 with `skills-fs` (its folder catalog as the server, its
//! client's skills calls as the host; cli/tests/skills_real/rmcp/, a cargo workspace of its own with its lock
//! file), in every pairing, on 2026-07-28 and on 2025-11-25 (which has no Skills: what the SDKs do there is
//! recorded and reported, not failed). Every session serves cli/tests/skills_real/skills/ (nested folders, a
//! nested skill, a prefixed skill `acme/billing/refunds`, a file that is not UTF-8, frontmatter with keys of
//! its own and `metadata`); the host lists, gets every skill and one that is not served, reads and verifies
//! every file of every skill, reads a file no skill lists, reads every directory and one URI that is not a
//! directory.
//!
//! The engine's own peers (the examples `skills_server` and `skills_client`, on mcp-spec-engine's `skills`
//! feature) are paired with both on 2026-07-28, the only revision they speak Skills on.
//!
//! The harness pairs any server with any client:
//! - a **server** is a command line that serves the folder given as its last argument over stdio;
//! - a **client** is a command line that takes `[--version V] SERVER...`, runs those steps against the server,
//!   and prints cli/tests/skills_real/expected-steps.txt (every pairing prints the same lines).
//!
//! Over Streamable HTTP (`-http` in a recording's name), a server takes `--http` before the folder and prints
//! its endpoint's URL as its first line, and a client is given that URL (the proxy's) instead of a command.
//!
//! The recordings check clean with `--ext skills --roundtrip --strict` on 2026-07-28; on 2025-11-25 each Skills
//! request is reported and not failed, and the base-protocol findings of the SDKs' HTTP layers are named
//! ([`KNOWN`]). A copy of a recording with one change is reported by the rule the change breaks, for
//! changes in each server's real traffic ([`ALTERATIONS`]).
//!
//! See [`record`] and [`record_http`]. The recordings kept in cli/tests/data/skills/ are named
//! `CLIENT-SERVER.jsonl` (`-2025-11-25` before `.jsonl` for that version); `UPDATE_SKILLS_SESSIONS=1` keeps
//! the ones recorded now. The peers record again when npm and cargo (Rust 1.88 for rmcp) are there: skipped
//! with a message without them, a failure under `CI=true`.

use crate::common;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{check_json, BIN};
use serde_json::{json, Value};

/// The revisions every pairing is recorded on: Skills is specified on the first only.
pub const VERSIONS: [&str; 2] = ["2026-07-28", "2025-11-25"];

/// The peers whose recordings are kept, by the name a recording carries. A new peer: a function giving its
/// [`Peer`], one entry in [`pinned_peers`], its name here (and in [`HTTP_CLIENTS`] if its host speaks HTTP).
const PEERS: [&str; 3] = ["ts", "rmcp", "engine"];

/// The peers whose hosts are paired over Streamable HTTP (rmcp's HTTP client needs reqwest, which its peers do
/// not build).
const HTTP_CLIENTS: [&str; 2] = ["ts", "engine"];

/// Whether a pairing is recorded on `version`: the engine's peers speak Skills where it is specified only
/// (its server serves 2026-07-28 alone, its client refuses another version).
fn paired(version: &str, client: &str, server: &str) -> bool {
    version == VERSIONS[0] || (client != "engine" && server != "engine")
}

/// Methods the Skills extension adds (on 2025-11-25, findings on their lines are reported, not failed).
const SKILLS_METHODS: [&str; 3] = ["skills/list", "skills/get", "resources/directory/read"];

/// A folder of skills in cli/tests/skills_real/: `skills`, which every session serves, or
/// [`OUTSIDE_AGENT_SKILLS`].
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/skills_real").join(name)
}

/// Two skills rmcp serves and the TypeScript SDK refuses (a name with a letter outside ASCII, `metadata` with
/// values that are not strings).
pub const OUTSIDE_AGENT_SKILLS: &str = "outside-agent-skills";

/// What every client prints after its steps against a server of the `skills` fixture.
pub fn expected_steps() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/skills_real/expected-steps.txt")).unwrap()
}

/// Whether a client's output is [`expected_steps`]. On 2025-11-25 the code for the unlisted file is the
/// server's choice between that revision's `-32002` (rmcp) and 2026-07-28's `-32602` (the TypeScript SDK in both
/// eras): that line is printed and left out.
pub fn same_steps(name: &str, steps: &str, version: &str) -> bool {
    let unlisted = |l: &&str| version != VERSIONS[0] && l.starts_with("read unlisted: ");
    if let Some(answer) = steps.lines().find(unlisted) {
        println!("{name}: {answer}");
    }
    let kept = |text: &str| text.lines().filter(|l| !unlisted(l)).map(str::to_owned).collect::<Vec<_>>();
    kept(steps) == kept(&expected_steps())
}

/// A recording's file name: `CLIENT-SERVER`, and the version where it is not 2026-07-28.
pub fn recording_name(client: &str, server: &str, version: &str) -> String {
    if version == VERSIONS[0] {
        format!("{client}-{server}")
    } else {
        format!("{client}-{server}-{version}")
    }
}

/// Runs `client` against `server` serving `folder`, through `mcp-schema proxy --record RECORD` on
/// `version`; the client's output, or why it failed.
pub fn record(client: &[OsString], server: &[OsString], folder: &Path, version: &str, record: &Path) -> Result<String, String> {
    let (program, args) = client.split_first().expect("a client command");
    let mut cmd = Command::new(program);
    cmd.args(args).args(["--version", version, BIN, "proxy", "--record"]).arg(record).arg("--").args(server).arg(folder);
    run(&mut cmd)
}

/// As [`record`], over Streamable HTTP: `server --http FOLDER` (which prints its endpoint's URL first), and
/// `mcp-schema proxy --http` in front of it, whose address the client is given instead of a command.
#[cfg(unix)]
pub fn record_http(client: &[OsString], server: &[OsString], folder: &Path, version: &str, record: &Path) -> Result<String, String> {
    use std::io::BufRead;
    let (program, args) = server.split_first().expect("a server command");
    let mut upstream = Command::new(program).args(args).arg("--http").arg(folder).stdout(std::process::Stdio::piped()).spawn().map_err(|e| e.to_string())?;
    let mut url = String::new();
    std::io::BufReader::new(upstream.stdout.take().unwrap()).read_line(&mut url).map_err(|e| e.to_string())?;
    let mut proxy = common::http_proxy::HttpProxy::start(url.trim(), &[]);
    let (program, args) = client.split_first().expect("a client command");
    let mut cmd = Command::new(program);
    cmd.args(args).args(["--version", version, &format!("http://127.0.0.1:{}/mcp", proxy.port)]);
    let steps = run(&mut cmd);
    let stopped = proxy.stop();
    let _ = upstream.kill();
    let _ = upstream.wait();
    std::fs::copy(&proxy.record.0, record).map_err(|e| e.to_string())?;
    if stopped != 0 {
        return Err(format!("the HTTP proxy exited with {stopped}"));
    }
    steps
}

/// Runs a command; its output, or why it failed.
fn run(cmd: &mut Command) -> Result<String, String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{cmd:?} failed ({}):\n{}", out.status, common::output_text(&out)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn kept(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/data/skills/{name}.jsonl"))
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn jsonl(lines: &[Value]) -> Vec<u8> {
    lines.iter().flat_map(|l| serde_json::to_vec(l).unwrap().into_iter().chain([b'\n'])).collect()
}

/// The method of each line: a request's or notification's own, a response's from its request.
fn methods(lines: &[Value]) -> Vec<String> {
    let mut asked = std::collections::HashMap::new();
    lines
        .iter()
        .map(|l| {
            let msg = &l["msg"];
            if msg.is_null() {
                return String::new();
            }
            let key = (l["dir"].as_str().unwrap_or_default().to_string(), msg["id"].to_string());
            if let Some(method) = msg["method"].as_str() {
                asked.insert(key, method.to_string());
                return method.to_string();
            }
            let from = if key.0 == "s2c" { "c2s" } else { "s2c" };
            asked.get(&(from.to_string(), key.1)).cloned().unwrap_or_default()
        })
        .collect()
}

/// Findings of the base protocol known in a recording, by the end of its name: the TypeScript SDK's stateless
/// 2025-11-25 fallback over HTTP answers the client's GET with 405 and a JSON-RPC error whose `id` is `null`,
/// and opens its SSE answers without a priming event; rmcp's 2025-11-25 session primes the initialize answer's
/// stream and the GET stream with the same event id `0`.
const KNOWN: &[(&str, &[&str])] = &[
    ("-ts-2025-11-25-http", &["transport.sse-priming", "transport.get-no-response", "jsonrpc.id", "type"]),
    ("-rmcp-2025-11-25-http", &["transport.event-id-unique"]),
];

/// Checks one recording of `version` with `--ext skills --roundtrip --strict`: every finding printed by rule;
/// the findings not expected returned. On 2026-07-28 every finding but the [`KNOWN`] ones is unexpected. On
/// 2025-11-25, which the extension is not specified against, each Skills request must be reported and the
/// findings on Skills lines are not failed (what the SDKs do there is outside the spec).
fn check_recording(name: &str, version: &str, input: &[Value]) -> Vec<(u64, String)> {
    let recording = name.split(' ').next().unwrap();
    let known: Vec<&str> = KNOWN.iter().filter(|(end, _)| recording.ends_with(end)).flat_map(|(_, rules)| rules.iter().copied()).collect();
    let (_, r) = check_json(&["--ext", "skills", "--roundtrip", "--strict", "-"], Some(&jsonl(input)));
    let mut by_rule = std::collections::BTreeMap::<&str, usize>::new();
    for f in &r.found {
        *by_rule.entry(f.rule.as_str()).or_default() += 1;
    }
    println!("{name}: {} messages, {} findings {by_rule:?}", r.passed + r.failed, r.found.len());
    let method = methods(input);
    let skills_line = |line: u64| SKILLS_METHODS.contains(&method[line as usize - 1].as_str());
    let outside_spec = version != VERSIONS[0];
    let mut unexpected: Vec<(u64, String)> = r
        .found
        .iter()
        .filter(|f| !(outside_spec && skills_line(f.line)) && !known.contains(&f.rule.as_str()))
        .map(|f| (f.line, format!("{} at {}", f.rule, f.pointer)))
        .collect();
    if outside_spec {
        let reported: std::collections::BTreeSet<u64> = r.found.iter().map(|f| f.line).collect();
        let requests = (1..=input.len() as u64).filter(|&n| skills_line(n) && input[n as usize - 1]["dir"] == "c2s");
        unexpected.extend(requests.filter(|n| !reported.contains(n)).map(|n| (n, "a Skills request not reported".to_string())));
    }
    unexpected
}

/// The recordings kept in cli/tests/data/skills/.
fn kept_names() -> Vec<(String, &'static str)> {
    let mut names = vec![(recording_name("rmcp", "rmcp", VERSIONS[0]) + "-" + OUTSIDE_AGENT_SKILLS, VERSIONS[0])];
    for version in VERSIONS {
        for client in HTTP_CLIENTS {
            names.extend(PEERS.iter().filter(|server| paired(version, client, server)).map(|server| (recording_name(client, server, version) + "-http", version)));
        }
    }
    for version in VERSIONS {
        for client in PEERS {
            names.extend(PEERS.iter().filter(|server| paired(version, client, server)).map(|server| (recording_name(client, server, version), version)));
        }
    }
    names
}

#[test]
fn the_recorded_sessions_check_clean() {
    for (name, version) in kept_names() {
        let outside = check_recording(&name, version, &lines(&kept(&name)));
        assert!(outside.is_empty(), "{name}: unexpected findings: {outside:?}");
    }
}

/// Whether a recorded session holds every step: its opening, the four skills listed and each one got, one
/// that is not served, every listed file read once and one unlisted file, and `-32602` for the unknown skill,
/// the unlisted file and the directory read of a file. Prints what it counted.
fn every_step(name: &str, version: &str, input: &[Value]) -> Result<(), String> {
    let method = methods(input);
    let answers = |m: &'static str| method.iter().zip(input).filter(move |(x, l)| *x == m && l["dir"] == "s2c").map(|(_, l)| &l["msg"]);
    let asked = |m: &str| method.iter().zip(input).filter(|(x, l)| *x == m && l["dir"] == "c2s").count();
    let opening = if version == VERSIONS[0] { "server/discover" } else { "initialize" };
    if method.iter().find(|m| !m.is_empty()).map(String::as_str) != Some(opening) {
        return Err(format!("{name}: the session does not open with {opening}"));
    }
    let skills: Vec<&Value> = answers("skills/list").flat_map(|m| m["result"]["skills"].as_array().into_iter().flatten()).collect();
    let files: usize = skills.iter().map(|s| s["resources"].as_array().map_or(0, Vec::len)).sum();
    let read = asked("resources/read");
    println!("{name}: {} skills listed, {files} files listed, {read} read, {} directories read", skills.len(), asked("resources/directory/read"));
    if (skills.len(), asked("skills/get")) != (4, 5) {
        return Err(format!("{name}: {} skills listed and {} got, not four listed, each got, and one not served", skills.len(), asked("skills/get")));
    }
    if read != files + 1 {
        return Err(format!("{name}: {read} files read, not the {files} listed and one unlisted"));
    }
    let refused: Vec<(&str, &Value)> = ["skills/get", "resources/read", "resources/directory/read"]
        .iter()
        .flat_map(|m| answers(m).filter_map(move |a| a.get("error").map(|e| (*m, &e["code"]))))
        .collect();
    let invalid = json!(-32602);
    // 2025-11-25's code for a resource not found, which rmcp answers on that revision.
    let not_found = json!(-32002);
    let unlisted = if version != VERSIONS[0] && refused.get(1) == Some(&("resources/read", &not_found)) { &not_found } else { &invalid };
    if refused != [("skills/get", &invalid), ("resources/read", unlisted), ("resources/directory/read", &invalid)] {
        return Err(format!("{name}: refused {refused:?}, not the unknown skill, the unlisted file and the directory read of a file with -32602"));
    }
    Ok(())
}

#[test]
fn the_recorded_sessions_hold_every_step() {
    for (name, version) in kept_names().into_iter().filter(|(name, _)| !name.ends_with(OUTSIDE_AGENT_SKILLS)) {
        every_step(&name, version, &lines(&kept(&name))).unwrap();
    }
}

#[test]
fn broken_answers_are_reported() {
    let name = recording_name("ts", "rmcp", VERSIONS[0]);
    let mut input = lines(&kept(&name));
    let method = methods(&input);
    let read = method.iter().zip(&input).position(|(m, l)| m == "resources/read" && l["dir"] == "s2c").unwrap();
    input[read]["msg"]["result"].as_object_mut().unwrap().remove("contents");
    let outside = check_recording(&format!("{name} without `contents` on line {}", read + 1), VERSIONS[0], &input);
    assert!(outside.iter().any(|(line, _)| *line == read as u64 + 1), "not reported: {outside:?}");
    let mut input = lines(&kept(&name));
    let list = nth_line(&input, "skills/list", "s2c", 0);
    input[list]["msg"]["result"]["skills"][0].as_object_mut().unwrap().remove("resources");
    let found = check_recording(&format!("{name} without a skill's `resources` on line {}", list + 1), VERSIONS[0], &input);
    assert!(found.iter().any(|(line, _)| *line == list as u64 + 1), "not reported: {found:?}");
    let mut input = lines(&kept(&name));
    input.truncate(input.len() - 2);
    let why = every_step(&format!("{name} without its last answer"), VERSIONS[0], &input);
    assert!(why.is_err(), "a session without its last answer has every step");
    println!("{}", why.unwrap_err());
}

/// The index of the `nth` line (from 0) that is `dir` traffic of `method`.
fn nth_line(input: &[Value], method: &str, dir: &str, nth: usize) -> usize {
    let of = methods(input);
    (0..input.len()).filter(|&i| of[i] == method && input[i]["dir"] == dir).nth(nth).unwrap_or_else(|| panic!("no {dir} {method} #{nth}"))
}

/// One change to a kept recording, and the rule it must be reported by on the changed line (`at`: the line,
/// found in the recording as it is).
struct Alteration {
    recording: &'static str,
    what: &'static str,
    at: fn(&[Value]) -> usize,
    change: fn(&mut Value),
    rule: &'static str,
}

/// One alteration per server of each peer's real traffic (`CLIENT-SERVER`).
const ALTERATIONS: &[Alteration] = &[
    Alteration {
        recording: "ts-ts",
        what: "a listed digest in upper case",
        at: |l| nth_line(l, "skills/list", "s2c", 0),
        change: |m| {
            let digest = &mut m["result"]["skills"][0]["resources"][0]["digest"];
            *digest = json!(digest.as_str().unwrap().to_uppercase().replace("SHA256:", "sha256:"));
        },
        rule: "skills.digest",
    },
    Alteration {
        recording: "rmcp-rmcp",
        what: "a skill whose resources leave out its SKILL.md",
        at: |l| nth_line(l, "skills/get", "s2c", 0),
        change: |m| {
            m["result"]["skill"]["resources"].as_array_mut().unwrap().remove(0);
        },
        rule: "skills.resources-skill-md",
    },
    Alteration {
        recording: "ts-rmcp",
        what: "the unknown skill answered with 2025-11-25's resource-not-found code",
        at: |l| nth_line(l, "skills/get", "s2c", 4),
        change: |m| m["error"]["code"] = json!(-32002),
        rule: "session.skills.error-code",
    },
    Alteration {
        recording: "rmcp-ts",
        what: "a listed name that is not the skill path's last segment",
        at: |l| nth_line(l, "skills/list", "s2c", 0),
        change: |m| m["result"]["skills"][1]["frontmatter"]["name"] = json!("git-commit"),
        rule: "skills.name-path",
    },
    Alteration {
        recording: "ts-rmcp",
        what: "a read file whose bytes are not the listed ones",
        at: |l| nth_line(l, "resources/read", "s2c", 1),
        change: |m| m["result"]["contents"][0]["text"] = json!("Dear customer,\n\nNo refund.\n"),
        rule: "session.skills.content-digest",
    },
    Alteration {
        recording: "rmcp-ts",
        what: "a server that no longer declares directoryRead",
        at: |l| nth_line(l, "server/discover", "s2c", 0),
        change: |m| m["result"]["capabilities"]["extensions"]["io.modelcontextprotocol/skills"] = json!({}),
        rule: "session.skills.directory-undeclared",
    },
];

#[test]
fn altered_copies_are_reported() {
    for a in ALTERATIONS {
        let mut input = lines(&kept(a.recording));
        let at = (a.at)(&input);
        (a.change)(&mut input[at]["msg"]);
        let (code, r) = check_json(&["--ext", "skills", "--roundtrip", "--strict", "-"], Some(&jsonl(&input)));
        let found: Vec<(&str, u64)> = r.found.iter().map(|f| (f.rule.as_str(), f.line)).collect();
        println!("{} / {}: {found:?}", a.recording, a.what);
        assert_eq!(code, 1, "{} / {}: not reported", a.recording, a.what);
        assert!(found.iter().any(|(rule, _)| *rule == a.rule), "{} / {}: no {} in {found:?}", a.recording, a.what, a.rule);
    }
}

/// A host client and a server, each a command line (see the module documentation).
pub struct Peer {
    pub client: Vec<OsString>,
    pub server: Vec<OsString>,
}

/// The TypeScript peers (`npm ci` of the pinned packages).
fn typescript_peer() -> Option<Peer> {
    let (dir, node) = common::pinned_npm("skills_real", "the TypeScript SDK's Skills peers")?;
    let with = |script: &str| vec![node.clone().into_os_string(), dir.join(script).into_os_string()];
    Some(Peer { client: with("ts-client.mjs"), server: with("ts-server.mjs") })
}

/// The rmcp peers, built from their own workspace and lock file.
fn rmcp_peer() -> Option<Peer> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/skills_real/rmcp/Cargo.toml");
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("skills-rmcp-peers");
    let mut build = Command::new(&cargo);
    build.args(["build", "--locked", "--quiet", "--manifest-path"]).arg(&manifest).arg("--target-dir").arg(&target);
    if let Err(why) = run(&mut build) {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "the rmcp peers do not build: CI must build them (Rust 1.88):\n{why}");
        eprintln!("skipped: the rmcp peers do not build here (they need Rust 1.88 and the crates of their lock file):\n{why}");
        return None;
    }
    let bin = |name: &str| vec![target.join("debug").join(name).into_os_string()];
    Some(Peer { client: bin("skills-rmcp-client"), server: bin("skills-rmcp-server") })
}

/// The engine's peers: the examples `skills_server` and `skills_client` (mcp-spec-engine's `skills` feature),
/// which a workspace build puts beside `mcp-schema` (`cargo build -p mcp-schema-examples --bin skills_server
/// --bin skills_client` when testing this crate alone).
fn engine_peer() -> Option<Peer> {
    let dir = Path::new(BIN).parent()?;
    let bin = |name: &str| dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    let (client, server) = (bin("skills_client"), bin("skills_server"));
    if !client.exists() || !server.exists() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "the engine's Skills peers are not built: CI builds the workspace");
        eprintln!("skipped: the engine's Skills peers are not built (cargo build -p mcp-schema-examples --bin skills_server --bin skills_client)");
        return None;
    }
    Some(Peer { client: vec![client.into_os_string()], server: vec![server.into_os_string()] })
}

/// The pinned peers that can run here, by the name their recordings carry; installed and built once.
fn pinned_peers() -> &'static [(&'static str, Peer)] {
    static PEERS: std::sync::OnceLock<Vec<(&'static str, Peer)>> = std::sync::OnceLock::new();
    PEERS.get_or_init(|| [("ts", typescript_peer()), ("rmcp", rmcp_peer()), ("engine", engine_peer())].into_iter().filter_map(|(name, p)| Some((name, p?))).collect())
}

/// A fresh folder for the sessions a test records now.
fn sessions_dir(test: &str) -> PathBuf {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(test);
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    out
}

/// With `UPDATE_SKILLS_SESSIONS` set, keeps a session recorded now in cli/tests/data/skills/.
fn keep(name: &str, recorded: &Path) {
    if std::env::var("UPDATE_SKILLS_SESSIONS").is_ok() {
        std::fs::create_dir_all(kept(name).parent().unwrap()).unwrap();
        std::fs::copy(recorded, kept(name)).unwrap();
    }
}

/// A session recorded again: the client took the expected steps, the recording holds every step and checks clean,
/// and it is kept where `UPDATE_SKILLS_SESSIONS=1` asks.
fn recorded_again(name: &str, steps: &str, version: &str, path: &Path) {
    assert!(same_steps(name, steps, version), "{name}: the client's steps:\n{steps}");
    let input = lines(path);
    every_step(&format!("{name} (recorded now)"), version, &input).unwrap();
    let outside = check_recording(&format!("{name} (recorded now)"), version, &input);
    assert!(outside.is_empty(), "{name}: unexpected findings: {outside:?}");
    keep(name, path);
}

#[test]
fn the_pinned_peers_record_the_same_steps_again() {
    let out = sessions_dir("skills-sessions");
    let mut recorded = 0;
    for version in VERSIONS {
        for (client, c) in pinned_peers() {
            for (server, s) in pinned_peers().iter().filter(|(server, _)| paired(version, client, server)) {
                let name = recording_name(client, server, version);
                let path = out.join(format!("{name}.jsonl"));
                let steps = record(&c.client, &s.server, &fixture("skills"), version, &path).unwrap();
                recorded_again(&name, &steps, version, &path);
                recorded += 1;
            }
        }
    }
    println!("{recorded} sessions recorded again");
}

/// The [`HTTP_CLIENTS`] against every server over Streamable HTTP, through `mcp-schema proxy --http`.
#[cfg(unix)]
#[test]
fn the_pinned_peers_record_the_same_steps_over_http() {
    let out = sessions_dir("skills-sessions-http");
    let mut recorded = 0;
    for version in VERSIONS {
        for (client, c) in pinned_peers().iter().filter(|(name, _)| HTTP_CLIENTS.contains(name)) {
            for (server, s) in pinned_peers().iter().filter(|(server, _)| paired(version, client, server)) {
                let name = recording_name(client, server, version) + "-http";
                let path = out.join(format!("{name}.jsonl"));
                let steps = record_http(&c.client, &s.server, &fixture("skills"), version, &path).unwrap();
                recorded_again(&name, &steps, version, &path);
                recorded += 1;
            }
        }
    }
    println!("{recorded} sessions recorded again over HTTP");
}

/// rmcp serves, and its host reads, a skill named with a letter outside ASCII and one whose `metadata` maps to
/// a number and a list (so does the engine); the TypeScript SDK's host refuses both entries and its server will not
/// serve them.
#[test]
fn the_sdks_disagree_on_agent_skills_names_and_metadata() {
    let peer = |name: &str| pinned_peers().iter().find(|(n, _)| *n == name).map(|(_, p)| p);
    let (Some(ts), Some(rmcp)) = (peer("ts"), peer("rmcp")) else {
        eprintln!("skipped: both SDKs' peers are needed");
        return;
    };
    let (folder, version) = (fixture(OUTSIDE_AGENT_SKILLS), VERSIONS[0]);
    let out = sessions_dir("skills-disagreements");
    let name = recording_name("rmcp", "rmcp", version) + "-" + OUTSIDE_AGENT_SKILLS;
    let path = out.join(format!("{name}.jsonl"));
    let steps = record(&rmcp.client, &rmcp.server, &folder, version, &path).unwrap();
    print!("rmcp host, rmcp server:\n{steps}");
    assert!(steps.starts_with("list: 2 skills, 0 invalid\n"), "{steps}");
    let outside = check_recording(&format!("{name} (recorded now)"), version, &lines(&path));
    assert!(outside.is_empty(), "{name}: unexpected findings: {outside:?}");
    keep(&name, &path);
    // The engine reads the Agent Skills rules as rmcp does (a lowercase letter outside ASCII is one; `metadata`
    // is the author's): its server serves both skills and its host reads them.
    if let Some(engine) = peer("engine") {
        let path = out.join("engine-engine.jsonl");
        let steps = record(&engine.client, &engine.server, &folder, version, &path).unwrap();
        print!("engine host, engine server:\n{steps}");
        assert!(steps.starts_with("list: 2 skills, 0 invalid\n"), "{steps}");
        let outside = check_recording("engine-engine (outside Agent Skills, recorded now)", version, &lines(&path));
        assert!(outside.is_empty(), "engine-engine: unexpected findings: {outside:?}");
    }
    let refusals = [
        ("the TypeScript host refuses rmcp's entries", record(&ts.client, &rmcp.server, &folder, version, &out.join("ts-rmcp.jsonl"))),
        ("the TypeScript server refuses the folder", record(&ts.client, &ts.server, &folder, version, &out.join("ts-ts.jsonl"))),
    ];
    for (what, outcome) in refusals {
        let why = outcome.expect_err(what);
        let named = ["frontmatter name \"café\" must be", "frontmatter metadata must map strings to strings"];
        println!("{what}: {}", named.iter().filter(|n| why.contains(*n)).count());
        assert!(named.iter().all(|n| why.contains(n)), "{what}, naming both skills:\n{why}");
    }
}
