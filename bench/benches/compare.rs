//! `cargo bench -p mcp-schema-bench`: parse and write throughput of the generated crate
//! against `serde_json::Value`, `serde::de::IgnoredAny`, rmcp and rust-mcp-schema on every
//! corpus of `mcp_schema_bench::corpora()`, plus the cost of validation (`validate_node` on the message's compact tree). Criterion
//! measures; at the end this binary reads criterion's `estimates.json` of this run and
//! prints one Markdown table (median MB/s, messages/s, ratio to `serde_json::Value`).
//! Criterion runs one contender after another, so a change in the machine's load moves
//! their ratios; the "rounds" columns time every contender once per round, in turn, and
//! give the median of the per-round ratios, and a last table holds them against issue 21's
//! targets.
//!
//! `MCP_BENCH_CRITERION=0` skips criterion (the rounds alone, under a minute);
//! `MCP_BENCH_ROUNDS=N` sets the number of rounds (default 15); `MCP_BENCH_TIMES=1` also prints
//! each job's median time per pass (stderr), to tell which side of a ratio moved.

#![forbid(unsafe_code)]

mod common;

use std::hint::black_box;
use std::path::PathBuf;
use std::collections::BTreeMap;
use std::time::{Duration, Instant, SystemTime};

use common::{contenders, validator, Write, Writer};
use criterion::{Criterion, Throughput};
use mcp_schema_bench::{corpora, fmt_num, markdown_table, mb_per_s, msgs_per_s, read_median, Corpus};
use mcp_spec_types::tree::Doc;


struct Row {
    corpus: usize,
    name: &'static str,
    id: &'static str,
    reads_as: String,
    parse: Option<String>,
    write: Option<String>,
    na: Option<String>,
    rejected: usize,
    write_bytes: usize,
}

fn criterion_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(t) => PathBuf::from(t).join("criterion"),
        None => mcp_schema_bench::workspace_root().join("target/criterion"),
    }
}

fn main() {
    let started = SystemTime::now();
    let dir = criterion_dir();
    let mut cr = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
        .without_plots()
        .configure_from_args()
        .output_directory(&dir);

    let with_criterion = std::env::var("MCP_BENCH_CRITERION").map_or(true, |v| v != "0");
    let (corpora, notes) = corpora();
    let mut rows: Vec<Row> = Vec::new();
    let mut validation: Vec<(usize, String, String, usize)> = Vec::new();
    let mut ratios: BTreeMap<(usize, String), Vec<f64>> = BTreeMap::new();

    for (ci, c) in corpora.iter().enumerate() {
        let bytes = c.bytes() as u64;
        let mut g = cr.benchmark_group(&c.id);
        g.throughput(Throughput::Bytes(bytes));
        if bytes > 1 << 20 {
            g.sample_size(10).measurement_time(Duration::from_secs(4));
        }
        let contenders = contenders(c);
        let values_by_contender: Vec<Vec<Box<dyn Write>>> = contenders
            .iter()
            .map(|k| match &k.run {
                Ok((_, Some(decode))) => c.msgs.iter().filter_map(|m| decode(m).ok()).collect(),
                _ => Vec::new(),
            })
            .collect();
        for k in &contenders {
            let mut row = Row {
                corpus: ci,
                name: k.name,
                id: k.id,
                reads_as: k.reads_as.clone(),
                parse: None,
                write: None,
                na: None,
                rejected: 0,
                write_bytes: 0,
            };
            match k.run.clone() {
                Err(why) => row.na = Some(why),
                Ok((parse, decode)) => {
                    if !k.write_only {
                        row.rejected = c.msgs.iter().filter(|m| !parse(m)).count();
                        let pid = format!("parse-{}", k.id);
                        if with_criterion {
                            g.bench_function(&pid, |b| {
                                b.iter(|| {
                                    for m in &c.msgs {
                                        black_box(parse(black_box(m)));
                                    }
                                })
                            });
                        }
                        row.parse = Some(pid);
                    }
                    if let Some(decode) = decode {
                        let values: Vec<Box<dyn Write>> = c.msgs.iter().filter_map(|m| decode(m).ok()).collect();
                        let mut buf = Vec::with_capacity(c.msgs.iter().map(|m| m.bytes.len()).max().unwrap_or(0) * 2);
                        for v in &values {
                            buf.clear();
                            k.write(v.as_ref(), &mut buf).expect("writes");
                            row.write_bytes += buf.len();
                            if k.writer == Writer::McpSchema {
                                // The rows compare like with like only if the bytes are the same.
                                let mut expected = Vec::new();
                                v.write_to(&mut expected).expect("writes");
                                assert!(buf == expected, "{}/{}: mcp_spec_types writer differs from serde_json", c.id, k.id);
                            }
                        }
                        let wid = format!("write-{}", k.id);
                        if with_criterion {
                            g.bench_function(&wid, |b| {
                                b.iter(|| {
                                    for v in &values {
                                        buf.clear();
                                        k.write(v.as_ref(), &mut buf).expect("writes");
                                        black_box(&buf);
                                    }
                                })
                            });
                        }
                        row.write = Some(wid);
                    }
                }
            }
            rows.push(row);
        }
        // Validation: on compact trees parsed beforehand, and the checker's whole path (bytes → tree → validate).
        let validate = validator(c);
        let values: Vec<Doc<'_>> = c.msgs.iter().map(|m| Doc::parse_slice(&m.bytes).expect("valid JSON")).collect();
        let violations: usize = c.msgs.iter().zip(&values).map(|(m, v)| validate(m, v.root())).sum();
        if with_criterion {
            g.bench_function("validate", |b| {
                b.iter(|| {
                    for (m, v) in c.msgs.iter().zip(&values) {
                        black_box(validate(m, black_box(v).root()));
                    }
                })
            });
            g.bench_function("tree-then-validate", |b| {
                b.iter(|| {
                    for m in &c.msgs {
                        let v = Doc::parse_slice(black_box(&m.bytes)).expect("valid JSON");
                        black_box(validate(m, v.root()));
                    }
                })
            });
        }
        validation.push((ci, "validate".into(), "tree-then-validate".into(), violations));
        g.finish();

        // The same passes again, every job once per round in turn, for ratios that a change
        // in the machine's load between criterion's groups does not move.
        let mut jobs: Vec<(String, Box<dyn FnMut() + '_>)> = Vec::new();
        for (k, vals) in contenders.iter().zip(&values_by_contender) {
            let Ok((parse, _)) = k.run.clone() else { continue };
            if !k.write_only {
                let msgs = &c.msgs;
                jobs.push((format!("parse-{}", k.id), Box::new(move || {
                    for m in msgs {
                        black_box(parse(black_box(m)));
                    }
                })));
            }
            if !vals.is_empty() {
                let mut buf = Vec::new();
                jobs.push((format!("write-{}", k.id), Box::new(move || {
                    for v in vals {
                        buf.clear();
                        k.write(v.as_ref(), &mut buf).expect("writes");
                        black_box(&buf);
                    }
                })));
            }
        }
        let (msgs, values, validate) = (&c.msgs, &values, &validate);
        jobs.push(("validate".into(), Box::new(move || {
            for (m, v) in msgs.iter().zip(values) {
                black_box(validate(m, black_box(v).root()));
            }
        })));
        for (id, times) in interleaved(&mut jobs) {
            if std::env::var_os("MCP_BENCH_TIMES").is_some() {
                let mut sorted = times.clone();
                sorted.sort_by(|a, b| a.total_cmp(b));
                eprintln!("time {} {id}: {:.2} µs per pass (median of {} rounds)", c.id, sorted[sorted.len() / 2] * 1e6, sorted.len());
            }
            ratios.insert((ci, id), times);
        }
    }
    cr.final_summary();

    report(&corpora, &rows, &validation, &dir, started, &notes, &ratios);
}

/// Rounds in which every job runs once, in an order rotated each round; returns each job's
/// seconds per pass, one entry per round. A ratio of two jobs is then taken round by
/// round, so both saw the same moment of the machine. Each timing is preceded by one
/// untimed pass of the same job: work the previous job left behind (glibc consolidating
/// its freed chunks at a later large `malloc`, caches full of its code) is paid there, so
/// every job is timed in its own steady state, as criterion's warm-up does.
fn interleaved(jobs: &mut [(String, Box<dyn FnMut() + '_>)]) -> Vec<(String, Vec<f64>)> {
    let rounds: usize = std::env::var("MCP_BENCH_ROUNDS").ok().and_then(|n| n.parse().ok()).unwrap_or(15);
    const TARGET: Duration = Duration::from_millis(10);
    // Passes per measurement: enough for about TARGET each.
    let reps: Vec<u32> = jobs
        .iter_mut()
        .map(|(_, job)| {
            job();
            let t = Instant::now();
            job();
            (TARGET.as_secs_f64() / t.elapsed().as_secs_f64().max(1e-9)).clamp(1.0, 10_000.0) as u32
        })
        .collect();
    let n = jobs.len();
    let mut times = vec![Vec::with_capacity(rounds); n];
    for round in 0..rounds {
        for i in (0..n).map(|i| (i + round) % n) {
            (jobs[i].1)();
            let t = Instant::now();
            for _ in 0..reps[i] {
                (jobs[i].1)();
            }
            times[i].push(t.elapsed().as_secs_f64() / f64::from(reps[i]));
        }
    }
    jobs.iter().map(|(id, _)| id.clone()).zip(times).collect()
}

/// The median over rounds of `a`'s time divided by `b`'s.
fn median_ratio(ratios: &BTreeMap<(usize, String), Vec<f64>>, corpus: usize, a: &str, b: &str) -> Option<f64> {
    let (ta, tb) = (ratios.get(&(corpus, a.to_string()))?, ratios.get(&(corpus, b.to_string()))?);
    let mut r: Vec<f64> = ta.iter().zip(tb).map(|(x, y)| x / y).collect();
    r.sort_by(|x, y| x.total_cmp(y));
    Some(r[r.len() / 2])
}

fn report(
    corpora: &[Corpus],
    rows: &[Row],
    validation: &[(usize, String, String, usize)],
    dir: &std::path::Path,
    since: SystemTime,
    notes: &[String],
    ratios: &BTreeMap<(usize, String), Vec<f64>>,
) {
    let median = |ci: usize, id: &str| read_median(dir, &corpora[ci].id, id, since);
    let mut table = Vec::new();
    for r in rows {
        let c = &corpora[r.corpus];
        let (n, bytes) = (c.msgs.len(), c.bytes());
        let base_p = median(r.corpus, "parse-value");
        let base_w = median(r.corpus, "write-value");
        let cell = |id: &Option<String>, base: Option<f64>| -> [String; 3] {
            match id.as_ref().and_then(|id| median(r.corpus, id)) {
                Some(ns) => [
                    fmt_num(mb_per_s(bytes, ns)),
                    fmt_num(msgs_per_s(n, ns)),
                    base.map(|b| format!("{:.2}×", b / ns)).unwrap_or_else(|| "–".into()),
                ],
                None => ["–".into(), "–".into(), "–".into()],
            }
        };
        let p = cell(&r.parse, base_p);
        let w = if r.write.is_some() { cell(&r.write, base_w) } else { ["–".into(), "–".into(), "–".into()] };
        // Value's time over this row's, round by round: > 1 is faster than Value.
        let rounds = |id: &Option<String>, base: &str| {
            id.as_ref().and_then(|id| median_ratio(ratios, r.corpus, base, id)).map(|x| format!("{x:.2}×")).unwrap_or_else(|| "–".into())
        };
        let (pi, wi) = (rounds(&r.parse, "parse-value"), rounds(&r.write, "write-value"));
        let mut note = r.na.clone().map(|s| format!("n/a: {s}")).unwrap_or_default();
        if r.na.is_none() {
            note = r.reads_as.clone();
            if r.rejected > 0 {
                note.push_str(&format!("; rejects {}/{} messages", r.rejected, n));
            }
        }
        table.push(vec![
            c.id.clone(),
            r.name.to_string(),
            p[0].clone(),
            p[1].clone(),
            p[2].clone(),
            pi,
            w[0].clone(),
            w[1].clone(),
            w[2].clone(),
            wi,
            note,
        ]);
    }
    println!("\n## Throughput (median of criterion's samples; MB = 10^6 bytes of the input corpus)\n");
    for c in corpora {
        println!("- `{}`: {} — {} messages, {} bytes", c.id, c.title, c.msgs.len(), c.bytes());
    }
    for n in notes {
        println!("- note: {n}");
    }
    println!();
    print!(
        "{}",
        markdown_table(
            &[
                "corpus",
                "contender",
                "parse MB/s",
                "parse msg/s",
                "parse ×Value",
                "parse ×Value, rounds",
                "write MB/s",
                "write msg/s",
                "write ×Value",
                "write ×Value, rounds",
                "reads as / notes",
            ],
            &table
        )
    );

    println!("\n## Validation (`validate_node::<T>` on the compact tree, with the types of the typed reading)\n");
    let mut vt = Vec::new();
    for (ci, vid, pvid, violations) in validation {
        let c = &corpora[*ci];
        let v = median(*ci, vid);
        let pv = median(*ci, pvid);
        let typed = median(*ci, "parse-mcp-typed");
        let specific = median(*ci, "parse-mcp-specific");
        let value = median(*ci, "parse-value");
        let pct = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (Some(a), Some(b)) => format!("+{:.0}%", a / b * 100.0),
            _ => "–".into(),
        };
        let rounds = |parse: &str| median_ratio(ratios, *ci, "validate", parse).map(|x| format!("+{:.0}%", x * 100.0)).unwrap_or_else(|| "–".into());
        vt.push(vec![
            c.id.clone(),
            v.map(|ns| fmt_num(mb_per_s(c.bytes(), ns))).unwrap_or("–".into()),
            pct(v, typed),
            rounds("parse-mcp-typed"),
            pct(v, specific),
            rounds("parse-mcp-specific"),
            pct(v, value),
            pv.map(|ns| fmt_num(mb_per_s(c.bytes(), ns))).unwrap_or("–".into()),
            violations.to_string(),
        ]);
    }
    print!(
        "{}",
        markdown_table(
            &[
                "corpus",
                "validate MB/s",
                "validate / typed-message parse",
                "same, rounds",
                "validate / specific parse",
                "same, rounds",
                "validate / Value parse",
                "bytes→tree→validate MB/s",
                "violations found",
            ],
            &vt
        )
    );
    let sizes: Vec<String> = rows
        .iter()
        .filter(|r| r.write_bytes > 0)
        .map(|r| format!("{}/{}: {}", corpora[r.corpus].id, r.id, r.write_bytes))
        .collect();
    println!("\nBytes written per pass (input bytes are the MB/s denominator for writes too):\n{}", sizes.join("; "));
    targets(corpora, ratios);
}

/// Issue 21's targets, from the rounds only: the typed message (or, where a corpus has no
/// messages, the specific type) read at least as fast as `Value` and 3× rmcp, written with
/// `mcp_spec_types::to_vec_into` 1.5× `Value`, validated for at most a quarter of its read.
fn targets(corpora: &[Corpus], ratios: &BTreeMap<(usize, String), Vec<f64>>) {
    let mut t = Vec::new();
    for (ci, c) in corpora.iter().enumerate() {
        let has = |id: &str| ratios.contains_key(&(ci, id.to_string()));
        let parse = if has("parse-mcp-typed") { "parse-mcp-typed" } else { "parse-mcp-specific" };
        let write = if has("write-mcp-typed-mcpw") { "write-mcp-typed-mcpw" } else { "write-mcp-specific-mcpw" };
        let cell = |r: Option<f64>, ok: fn(f64) -> bool, show: fn(f64) -> String| match r {
            Some(r) => format!("{} {}", show(r), if ok(r) { "✓" } else { "✗" }),
            None => "–".into(),
        };
        let times = |r: f64| format!("{r:.2}×");
        t.push(vec![
            c.id.clone(),
            parse.trim_start_matches("parse-").to_string(),
            cell(median_ratio(ratios, ci, "parse-value", parse), |r| r >= 1.0, times),
            cell(median_ratio(ratios, ci, "parse-rmcp-typed", parse), |r| r >= 3.0, times),
            cell(median_ratio(ratios, ci, "write-value", write), |r| r >= 1.5, times),
            // Validation runs on values read beforehand: its time over the read's is what it adds.
            cell(median_ratio(ratios, ci, "validate", parse), |r| r <= 0.25, |r| format!("+{:.0}%", r * 100.0)),
        ]);
    }
    println!("\n## Targets (issue 21), medians of the per-round ratios\n");
    print!(
        "{}",
        markdown_table(
            &["corpus", "typed read", "parse ×Value (≥ 1.0)", "parse ×rmcp (≥ 3)", "write ×Value, to_vec_into (≥ 1.5)", "validate (≤ +25%)"],
            &t
        )
    );
}
