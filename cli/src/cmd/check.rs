//! `mcp-schema check`: its arguments, the checking options `proxy` shares, and its run.

use std::io;

use clap::Args;

use crate::args::{check_type_name, CheckArgs, Protocol, UsageError, DEFAULT_MAX_FINDINGS};
use crate::versions::{self, EXTENSIONS};

pub const USAGE: &str = "mcp-schema check [OPTIONS] FILE...";

const AFTER_HELP: &str = "\
FILE is a .json file holding one value, a JSONL file (any other extension)
holding one value per line, or `-` for JSONL on standard input; a HAR (HTTP
Archive: a .har file, or any file starting `{\"log\"`) is read for its MCP
requests and JSON or SSE responses. A JSONL line is
a bare value or {\"msg\": ..., \"dir\": \"c2s\"|\"s2c\", \"protocol\": ..., \"type\": ...}.

exit status: 0 nothing failed, 1 something failed, 2 usage or I/O error.";

fn after_help() -> String {
    format!("{AFTER_HELP}\nversions: {}\nextensions: {}", versions::version_names(), versions::extension_names())
}

/// The checking options: those of `check`, taken by `proxy` with the same meaning.
#[derive(Debug, Clone, Args)]
pub struct CheckOptions {
    /// Schema version (auto: the line's `protocol`, else what the stream negotiated, else the latest)
    #[arg(long, value_name = "VERSION|auto", default_value = "auto", value_parser = protocol)]
    pub protocol: Protocol,
    /// Turn on an extension (repeatable; see the list below)
    #[arg(long = "ext", value_name = "NAME", value_parser = extension)]
    pub ext: Vec<usize>,
    /// Also check that re-serializing gives the same JSON
    #[arg(long)]
    pub roundtrip: bool,
    /// Only check typed reading (no validation rules)
    #[arg(long)]
    pub no_validate: bool,
    /// Warnings are errors
    #[arg(long)]
    pub strict: bool,
    /// Print results as JSON lines (see cli/README.md)
    #[arg(long)]
    pub json: bool,
    /// At the end: messages per method and direction, findings per rule, unanswered requests
    #[arg(long)]
    pub summary: bool,
    /// Findings kept and printed per value; the rest are counted (`and M more`)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_FINDINGS, value_parser = positive)]
    pub max_findings: usize,
    /// Value tree any message may take (MiB): one that would take more, and more than 16 times its bytes, is refused unread
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_TREE_MIB, value_parser = positive)]
    pub max_tree_mib: usize,
}

/// `--max-tree-mib` unless given.
const DEFAULT_TREE_MIB: usize = (crate::cost::DEFAULT_TREE_FLOOR >> 20) as usize;

impl CheckOptions {
    /// The checker's arguments for these options and `files`; `--max-tree-mib` is set for the
    /// whole process (the bridge and the checker weigh every message against it).
    pub fn to_check_args(&self, files: Vec<String>) -> CheckArgs {
        crate::cost::set_tree_floor((self.max_tree_mib as u64) << 20);
        let mut extensions = Vec::new();
        for &i in &self.ext {
            if !extensions.contains(&i) {
                extensions.push(i);
            }
        }
        CheckArgs {
            protocol: self.protocol,
            extensions,
            type_name: None,
            roundtrip: self.roundtrip,
            validate: !self.no_validate,
            strict: self.strict,
            json: self.json,
            summary: self.summary,
            max_findings: self.max_findings,
            har_held: crate::har::HELD_MAX,
            files,
        }
    }

    /// These options as arguments again (`proxy` passes them to its checker child).
    pub fn to_args(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Protocol::Fixed(i) = self.protocol {
            out.push(format!("--protocol={}", versions::VERSIONS[i].name));
        }
        out.extend(self.ext.iter().map(|&i| format!("--ext={}", EXTENSIONS[i].name)));
        for (on, flag) in [(self.roundtrip, "--roundtrip"), (self.no_validate, "--no-validate"), (self.strict, "--strict"), (self.json, "--json"), (self.summary, "--summary")] {
            if on {
                out.push(flag.to_string());
            }
        }
        if self.max_findings != DEFAULT_MAX_FINDINGS {
            out.push(format!("--max-findings={}", self.max_findings));
        }
        if self.max_tree_mib != DEFAULT_TREE_MIB {
            out.push(format!("--max-tree-mib={}", self.max_tree_mib));
        }
        out
    }
}

/// Checks MCP messages and documents against the schema of a protocol version.
#[derive(Debug, Args)]
#[command(args_override_self = true, after_help = after_help())]
pub struct CheckCmd {
    #[command(flatten)]
    pub options: CheckOptions,
    /// Check each value as this schema type, not as a message
    #[arg(long = "type", value_name = "TYPE")]
    pub type_name: Option<String>,
    /// A HAR's MCP entries held while they wait for their turn (another session's, out of time order); past it they are counted, not checked
    #[arg(long, value_name = "BYTES", default_value = "256M", value_parser = byte_size)]
    pub har_held: usize,
    /// Files to check (`-` for standard input)
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
}

impl super::Cmd for CheckCmd {
    const NAME: &'static str = "check";
    type Args = CheckArgs;

    /// Checks every file, printing to standard output.
    fn run(a: &CheckArgs) -> i32 {
        crate::stream::check_files(a, io::stdout().lock(), &mut io::stderr().lock())
    }

    fn usage(_: &[String]) -> &'static str {
        USAGE
    }

    fn resolve(self) -> Result<CheckArgs, UsageError> {
        let mut a = self.options.to_check_args(self.files);
        if let Some(t) = &self.type_name {
            check_type_name(t, &a)?;
        }
        a.type_name = self.type_name;
        a.har_held = self.har_held;
        Ok(a)
    }
}


/// `--protocol`, `--from`: a version name or `auto`.
pub(crate) fn protocol(v: &str) -> Result<Protocol, String> {
    if v == "auto" {
        return Ok(Protocol::Auto);
    }
    version(v).map(Protocol::Fixed).map_err(|_| format!("unknown protocol version `{v}` (known: auto, {})", versions::version_names()))
}

/// A version name, as an index into `VERSIONS`.
pub(crate) fn version(v: &str) -> Result<usize, String> {
    versions::version_index(v).ok_or_else(|| format!("unknown protocol version `{v}` (known: {})", versions::version_names()))
}

fn extension(v: &str) -> Result<usize, String> {
    EXTENSIONS.iter().position(|e| e.name == v).ok_or_else(|| format!("unknown extension `{v}` (known: {})", versions::extension_names()))
}

/// `--max-findings`: a positive whole number.
pub(crate) fn positive(v: &str) -> Result<usize, String> {
    match v.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("needs a positive whole number, found `{v}`")),
    }
}

/// `--har-held`: a number of bytes, with an optional `K`, `M` or `G` (powers of 1024).
fn byte_size(v: &str) -> Result<usize, String> {
    let (digits, shift) = match v.strip_suffix(['K', 'k']) {
        Some(d) => (d, 10),
        None => match v.strip_suffix('M') {
            Some(d) => (d, 20),
            None => v.strip_suffix('G').map_or((v, 0), |d| (d, 30)),
        },
    };
    digits.parse::<usize>().ok().and_then(|n| n.checked_mul(1 << shift)).ok_or_else(|| format!("needs a number of bytes (with K, M or G for KiB, MiB, GiB), found `{v}`"))
}
