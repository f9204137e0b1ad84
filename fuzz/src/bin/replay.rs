//! Runs a fuzz target's property on files, on a stable toolchain without libFuzzer:
//!
//! ```sh
//! cargo run --manifest-path fuzz/Cargo.toml --no-default-features --release --bin replay -- roundtrip fuzz/corpus/roundtrip
//! ```
//!
//! Every file (folders are walked) is one input. A panic is reported with the file's
//! name and counted; the closing line is `replay <target>: N passed, N failed`.

#![forbid(unsafe_code)]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
        entries.sort();
        for e in entries {
            files(&e, out);
        }
    } else {
        out.push(path.to_path_buf());
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((target, paths)) = args.split_first() else {
        eprintln!("usage: replay <{}> FILE_OR_DIR...", mcp_schema_fuzz::TARGETS.join("|"));
        return ExitCode::from(2);
    };
    if !mcp_schema_fuzz::TARGETS.contains(&target.as_str()) {
        eprintln!("unknown target `{target}` (expected one of {})", mcp_schema_fuzz::TARGETS.join(", "));
        return ExitCode::from(2);
    }
    let mut inputs = Vec::new();
    for p in paths {
        files(Path::new(p), &mut inputs);
    }
    let (mut passed, mut failed) = (0usize, 0usize);
    for file in &inputs {
        let data = match std::fs::read(file) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{}: {e}", file.display());
                failed += 1;
                continue;
            }
        };
        match catch_unwind(AssertUnwindSafe(|| mcp_schema_fuzz::run(target, &data))) {
            Ok(_) => passed += 1,
            Err(_) => {
                eprintln!("FAIL {} (the panic message is above)", file.display());
                failed += 1;
            }
        }
    }
    println!("replay {target}: {passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
