//! A loop to run under a profiler (callgrind counts instructions, so its numbers do not depend
//! on the machine's load):
//!
//! ```sh
//! cargo bench -p mcp-schema-bench --bench profile --no-run   # prints the binary's path
//! valgrind --tool=callgrind BINARY CORPUS CONTENDER parse|write|validate [PASSES]
//! ```
//!
//! Without arguments (as `cargo bench` runs it) it lists the corpora and contenders and exits.
//! `BINARY check [CORPUS...]` reads every message once with every contender and prints what
//! each rejects, with the first error (the correctness check of `compare`, without the timing).

#![forbid(unsafe_code)]

mod common;

use std::hint::black_box;

use common::{contenders, validator};
use mcp_schema_bench::corpora;
use mcp_spec_types::tree::Doc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let (corpora, _) = corpora();
    if args.first().is_some_and(|a| a == "check") {
        check(&corpora, &args[1..]);
        return;
    }
    if args.len() < 3 {
        println!("usage: profile CORPUS CONTENDER parse|write|validate [PASSES]");
        for c in &corpora {
            let ids: Vec<&str> = contenders(c).iter().filter(|k| k.run.is_ok()).map(|k| k.id).collect();
            println!("  {}: {}", c.id, ids.join(" "));
        }
        return;
    }
    let passes: usize = args.get(3).and_then(|p| p.parse().ok()).unwrap_or(10);
    let c = corpora.iter().find(|c| c.id == args[0]).expect("no such corpus");
    println!("corpus-bytes {}", c.bytes());
    if args[2] == "validate" {
        let validate = validator(c);
        let values: Vec<Doc<'_>> = c.msgs.iter().map(|m| Doc::parse_slice(&m.bytes).unwrap()).collect();
        for _ in 0..passes {
            for (m, v) in c.msgs.iter().zip(&values) {
                black_box(validate(m, black_box(v).root()));
            }
        }
        return;
    }
    let k = contenders(c).into_iter().find(|k| k.id == args[1]).expect("no such contender");
    let (parse, decode) = k.run.clone().expect("contender cannot represent this corpus");
    match args[2].as_str() {
        "parse" => {
            for _ in 0..passes {
                for m in &c.msgs {
                    black_box(parse(black_box(m)));
                }
            }
        }
        "write" => {
            let decode = decode.expect("no write for this contender");
            let values: Vec<_> = c.msgs.iter().filter_map(|m| decode(m).ok()).collect();
            let mut buf = Vec::new();
            for _ in 0..passes {
                for v in &values {
                    buf.clear();
                    k.write(v.as_ref(), &mut buf).unwrap();
                    black_box(&buf);
                }
            }
        }
        other => panic!("unknown operation {other}"),
    }
}

/// Prints, per corpus and contender, how many messages it rejects and the first rejection.
fn check(corpora: &[mcp_schema_bench::Corpus], only: &[String]) {
    for c in corpora.iter().filter(|c| only.is_empty() || only.contains(&c.id)) {
        for k in contenders(c) {
            let Ok((parse, decode)) = &k.run else { continue };
            if k.write_only {
                continue;
            }
            let rejected: Vec<usize> = (0..c.msgs.len()).filter(|&i| !parse(&c.msgs[i])).collect();
            let first = rejected.first().map(|&i| {
                let why = decode.as_ref().and_then(|d| d(&c.msgs[i]).err()).unwrap_or_default();
                format!(" (first: message {}, {why})", i + 1)
            });
            println!("{} {}: rejects {}/{}{}", c.id, k.id, rejected.len(), c.msgs.len(), first.unwrap_or_default());
        }
    }
}
