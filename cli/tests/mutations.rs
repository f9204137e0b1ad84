//! Bad input never panics: thousands of deterministic mutations of the recorded sessions
//! (values of another type, dropped and added keys, truncated lines, stray bytes) are each
//! reported on their own line, with no `internal` finding and every line counted.

use crate::common;

use common::{check_json, data, Cases, TempFile};
use serde_json::{json, Value};

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Every (parent, key or index) place in a value, as paths.
fn places(v: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                path.push(json!(k));
                out.push(path.clone());
                places(x, path, out);
                path.pop();
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(json!(i));
                out.push(path.clone());
                places(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn at<'a>(v: &'a mut Value, path: &[Value]) -> &'a mut Value {
    path.iter().fold(v, |v, p| match p {
        Value::String(k) => &mut v[k.as_str()],
        Value::Number(i) => &mut v[i.as_u64().unwrap() as usize],
        _ => unreachable!(),
    })
}

const REPLACEMENTS: &[&str] = &[
    "null", "true", "0", "-1", "1.5", "1e300", "9223372036854775808", "\"\"", "\"x\"", "[]", "{}", "[null]",
    "{\"type\":\"text\"}", "\"ui://x\"", "\"2025-06-18\"", "\"notifications/cancelled\"",
];

fn mutate(line: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut v: Value = serde_json::from_slice(line).unwrap();
    match rng.below(6) {
        // Truncate the line somewhere.
        0 => line[..rng.below(line.len())].to_vec(),
        // A stray byte somewhere (often invalid UTF-8 or broken JSON).
        1 => {
            let mut l = line.to_vec();
            let i = rng.below(l.len());
            l[i] = [0xff, b'"', b'{', b']', b',', b'\\', 0x00, 0xc3][rng.below(8)];
            l
        }
        // Drop a key or an array element.
        2 => {
            let mut ps = Vec::new();
            places(&v, &mut Vec::new(), &mut ps);
            if let Some(p) = ps.get(rng.below(ps.len())) {
                let (last, parent) = p.split_last().unwrap();
                match (at(&mut v, parent), last) {
                    (Value::Object(o), Value::String(k)) => {
                        o.remove(k);
                    }
                    (Value::Array(a), Value::Number(i)) => {
                        a.remove(i.as_u64().unwrap() as usize);
                    }
                    _ => {}
                }
            }
            serde_json::to_vec(&v).unwrap()
        }
        // Add an unknown key somewhere.
        3 => {
            let mut ps = vec![vec![]];
            places(&v, &mut Vec::new(), &mut ps);
            let p = ps[rng.below(ps.len())].clone();
            if let Value::Object(o) = at(&mut v, &p) {
                o.insert("_meta".into(), json!({"io.modelcontextprotocol/x": 1, "bad key": [1]}));
            }
            serde_json::to_vec(&v).unwrap()
        }
        // Replace a value by a value of another kind.
        _ => {
            let mut ps = Vec::new();
            places(&v, &mut Vec::new(), &mut ps);
            if let Some(p) = ps.get(rng.below(ps.len())) {
                let r: Value = serde_json::from_str(REPLACEMENTS[rng.below(REPLACEMENTS.len())]).unwrap();
                *at(&mut v, p) = r;
            }
            serde_json::to_vec(&v).unwrap()
        }
    }
}

#[test]
fn mutated_sessions_never_panic() {
    let mut cases = Cases::default();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for version in ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] {
        let bytes = std::fs::read(data(&format!("sessions/{version}.jsonl"))).unwrap();
        let original: Vec<&[u8]> = bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()).collect();
        let mut out = Vec::new();
        let mut count = 0;
        for _ in 0..20 {
            for line in &original {
                let m = mutate(line, &mut rng);
                // A mutation may create a blank line or split one: count what the checker will see.
                for l in m.split(|&b| b == b'\n') {
                    if l.iter().any(|b| !b" \t\r".contains(b)) {
                        count += 1;
                    }
                }
                out.extend(m);
                out.push(b'\n');
            }
        }
        let file = TempFile::new("mutated.jsonl", &out);
        for flags in [&["--roundtrip", "--ext", "apps"][..], &["--strict"], &["--no-validate", "--protocol", "draft"]] {
            cases.check(&format!("{version} {flags:?}"), || {
                let mut args = flags.to_vec();
                args.push(file.path());
                let (code, r) = check_json(&args, None);
                if code != 1 {
                    return Err(format!("exit {code}"));
                }
                if let Some(f) = r.found.iter().find(|f| f.rule == "internal") {
                    return Err(format!("an internal error: {f:?}"));
                }
                if (r.passed + r.failed) as usize != count {
                    return Err(format!("{} values counted, {count} lines", r.passed + r.failed));
                }
                Ok(())
            });
        }
    }
    cases.finish();
}
