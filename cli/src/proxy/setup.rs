//! What every proxy mode starts from: its arguments ([`ProxyArgs`], with `--http`'s [`Target`]),
//! its outputs opened and checked not to be the same file, and how it fails to start.

use std::fs::File;
use std::io;

use super::http::limits::ServeOptions;
use super::http::upstream::{redact_query, Upstream};
use super::output::Out;
use super::signals::StopTimes;
use crate::args::CheckArgs;

/// `mcp-schema proxy` arguments: the checker's options, where findings and the recording go,
/// and the server command.
#[derive(Debug, Clone)]
pub struct ProxyArgs {
    pub check: CheckArgs,
    /// `--record FILE`: the session as JSONL wrapper lines.
    pub record: Option<String>,
    /// `--findings FILE`: findings go there instead of stderr.
    pub findings: Option<String>,
    /// The server command and its arguments (after `--`).
    pub command: Vec<String>,
    /// The checking options as given (passed on to the checker child).
    pub check_options: Vec<String>,
    /// Internal: this process is the checker child (checking.rs), with its role.
    pub checker_child: Option<String>,
    /// `--to VERSION` (an index into `VERSIONS`): bridge to a server of this version (`crate::bridge`).
    pub to: Option<usize>,
    /// `--http --listen ADDR --upstream URL`: a Streamable HTTP reverse proxy (http/), no command.
    pub http: Option<Box<Target>>,
    /// `--term-after`, `--kill-after`: the stdio server's stop.
    pub stop: StopTimes,
}

/// `--listen ADDR --upstream URL`.
#[derive(Debug, Clone)]
pub struct Target {
    pub listen: String,
    pub upstream: Upstream,
    pub upstream_url: String,
    pub serve: ServeOptions,
    /// `--enforce`: the guard layer answers a request that breaks a MUST (checked.rs).
    pub enforce: bool,
    /// `--metrics ADDR`: where `GET /metrics` is served.
    pub metrics: Option<String>,
}

impl Target {
    pub fn new(listen: String, upstream_url: &str, serve: ServeOptions) -> Result<Target, String> {
        Ok(Target { listen, upstream: Upstream::parse(upstream_url)?, upstream_url: upstream_url.to_string(), serve, enforce: false, metrics: None })
    }

    /// The upstream URL as said on stderr: its query's secret-looking values hidden.
    pub fn shown_url(&self) -> String {
        match self.upstream_url.split_once('?') {
            Some((base, q)) => format!("{base}?{}", redact_query(q)),
            None => self.upstream_url.clone(),
        }
    }
}

/// Stderr, the findings output and the recording, checked not to be the same file.
pub(crate) fn open_outputs(a: &ProxyArgs) -> Result<(Out, Out, Option<io::BufWriter<File>>), i32> {
    let stderr = Out::new("stderr", Box::new(io::stderr()));
    // `--record X --findings ./X` (or a link): compared as files, not names, before either is
    // created (creating the findings file would empty an existing recording) and after.
    let clash = || match (&a.record, &a.findings) {
        (Some(r), Some(f)) => same_file(std::fs::metadata(r).ok(), std::fs::metadata(f).ok()),
        _ => false,
    };
    let same = "--record and --findings name the same file";
    if clash() {
        return Err(fail(same));
    }
    let findings = match &a.findings {
        None => stderr.clone(),
        Some(path) => match File::create(path) {
            Ok(f) => Out::new(path, Box::new(f)),
            Err(e) => return Err(fail(&format!("{path}: {e}"))),
        },
    };
    if clash() {
        return Err(fail(same));
    }
    let record = match &a.record {
        None => None,
        Some(path) => match File::create(path) {
            Ok(f) => Some(io::BufWriter::with_capacity(1 << 16, f)),
            Err(e) => return Err(fail(&format!("{path}: {e}"))),
        },
    };
    if clash() {
        return Err(fail(same));
    }
    Ok((stderr, findings, record))
}

#[cfg(unix)]
fn same_file(a: Option<std::fs::Metadata>, b: Option<std::fs::Metadata>) -> bool {
    use std::os::unix::fs::MetadataExt;
    matches!((a, b), (Some(a), Some(b)) if (a.dev(), a.ino()) == (b.dev(), b.ino()))
}

#[cfg(not(unix))]
fn same_file(_: Option<std::fs::Metadata>, _: Option<std::fs::Metadata>) -> bool {
    false
}

pub(crate) fn fail(message: &str) -> i32 {
    eprintln!("mcp-schema proxy: {message}");
    2
}

