//! `cargo bench -p mcp-schema-bench --bench convert`: what converting a message to the adjacent
//! protocol version costs (`convert::Convert`), against the two other ways to get it: a JSON round
//! trip (`serde_json::to_value` of the source type, then `from_value` as the target's) and reading
//! the message from its JSON text. Corpora: the recorded 2025-11-25 sessions, a large `tools/list`
//! result and a `tools/call` request, each 2025-11-25 -> 2025-06-18. Every contender runs once per
//! round, in turn; the table gives the median time per message and the median per-round ratios.

#![forbid(unsafe_code)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use mcp_schema_bench::{load_session, tools_list, workspace_root, Dir, Msg};
use mcp_spec_types::convert::Convert;
use mcp_spec_types::{v2025_06_18 as target, v2025_11_25 as source};

/// One message of the corpus, read once in the source version.
enum Typed {
    Client(source::ClientMessage),
    Server(source::ServerMessage),
}

struct Corpus {
    name: String,
    bytes: Vec<Vec<u8>>,
    values: Vec<Typed>,
}

fn corpus(name: &str, msgs: Vec<Msg>) -> Corpus {
    let mut bytes = Vec::new();
    let mut values = Vec::new();
    for m in msgs {
        let typed = match m.dir {
            Dir::C2S => serde_json::from_slice(&m.bytes).ok().map(Typed::Client),
            Dir::S2C => serde_json::from_slice(&m.bytes).ok().map(Typed::Server),
        };
        // Only messages that convert: a failure returns early and would flatter the conversion.
        let converts = match &typed {
            Some(Typed::Client(c)) => Convert::<target::ClientMessage>::convert(c.clone()).is_ok(),
            Some(Typed::Server(s)) => Convert::<target::ServerMessage>::convert(s.clone()).is_ok(),
            None => false,
        };
        if let (true, Some(t)) = (converts, typed) {
            bytes.push(m.bytes);
            values.push(t);
        }
    }
    Corpus { name: name.to_string(), bytes, values }
}

fn clone_all(values: &[Typed]) -> Vec<Typed> {
    values
        .iter()
        .map(|t| match t {
            Typed::Client(c) => Typed::Client(c.clone()),
            Typed::Server(s) => Typed::Server(s.clone()),
        })
        .collect()
}

/// Nanoseconds for one pass of `f` over fresh clones of the corpus (cloning is not timed).
fn time_pass(c: &Corpus, f: &dyn Fn(Vec<Typed>)) -> f64 {
    let values = clone_all(&c.values);
    let start = Instant::now();
    f(values);
    start.elapsed().as_nanos() as f64
}

fn convert_pass(values: Vec<Typed>) {
    for t in values {
        match t {
            Typed::Client(c) => drop(black_box(Convert::<target::ClientMessage>::convert(c).unwrap())),
            Typed::Server(s) => drop(black_box(Convert::<target::ServerMessage>::convert(s).unwrap())),
        }
    }
}

fn json_roundtrip_pass(values: Vec<Typed>) {
    for t in values {
        match t {
            Typed::Client(c) => drop(black_box(serde_json::from_value::<target::ClientMessage>(serde_json::to_value(&c).unwrap()).unwrap())),
            Typed::Server(s) => drop(black_box(serde_json::from_value::<target::ServerMessage>(serde_json::to_value(&s).unwrap()).unwrap())),
        }
    }
}

fn read_pass(c: &Corpus) -> f64 {
    let start = Instant::now();
    for (b, t) in c.bytes.iter().zip(&c.values) {
        match t {
            Typed::Client(_) => drop(black_box(mcp_spec_types::from_slice::<source::ClientMessage>(b).unwrap())),
            Typed::Server(_) => drop(black_box(mcp_spec_types::from_slice::<source::ServerMessage>(b).unwrap())),
        }
    }
    start.elapsed().as_nanos() as f64
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[xs.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument, if any, picks corpora by name.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let root = workspace_root();
    let mut corpora = Vec::new();
    for path in [root.join("cli/tests/data/sessions/2025-11-25.jsonl"), root.join("bench/data/sessions/2025-11-25-bidirectional.jsonl")] {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        corpora.push(corpus(&name, load_session(&path).unwrap()));
    }
    corpora.push(corpus("tools/list result, 100 tools", vec![Msg { bytes: tools_list(100), dir: Dir::S2C, ty: None }]));
    let call = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Lisbon","units":"metric","days":3},"_meta":{"progressToken":"p-7"}}}"#;
    corpora.push(corpus("tools/call request", vec![Msg { bytes: call.to_vec(), dir: Dir::C2S, ty: None }]));
    let budget = Duration::from_millis(if std::env::var_os("QUICK").is_some() { 200 } else { 2000 });
    println!("| corpus (2025-11-25 -> 2025-06-18) | messages | convert | JSON round trip | read from JSON | convert / round trip | convert / read |");
    println!("|---|---|---|---|---|---|---|");
    for c in corpora.iter().filter(|c| filter.as_ref().is_none_or(|f| c.name.contains(f.as_str()))) {
        let n = c.values.len() as f64;
        let (mut conv, mut json, mut read, mut r_json, mut r_read) = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        // Warm up, then rounds until the budget is spent (at least 11).
        time_pass(c, &convert_pass);
        time_pass(c, &json_roundtrip_pass);
        read_pass(c);
        let start = Instant::now();
        while conv.len() < 11 || start.elapsed() < budget {
            let a = time_pass(c, &convert_pass);
            let b = time_pass(c, &json_roundtrip_pass);
            let r = read_pass(c);
            conv.push(a / n);
            json.push(b / n);
            read.push(r / n);
            r_json.push(a / b);
            r_read.push(a / r);
        }
        println!(
            "| {} | {} | {:.0} ns | {:.0} ns | {:.0} ns | {:.2} | {:.2} |",
            c.name,
            c.values.len(),
            median(conv),
            median(json),
            median(read),
            median(r_json),
            median(r_read)
        );
    }
}
