//! `mcp-schema proxy`: its arguments (the checking options of `check` flattened in) and their
//! checks, and its run: which of the proxy's modes (`crate::proxy`, `crate::proxy::http`) or the
//! bridge's (`crate::bridge`, `--to`) the arguments ask for.

use std::time::Duration;

use clap::builder::NonEmptyStringValueParser;
use clap::Args;

use super::check::CheckOptions;
use crate::args::UsageError;
use crate::proxy::{http, ProxyArgs, StopTimes};
use crate::versions;

pub const USAGE: &str = "mcp-schema proxy [OPTIONS] -- COMMAND [ARGS...]";
pub const HTTP_USAGE: &str = "mcp-schema proxy --http --listen ADDR --upstream URL [OPTIONS]";

const AFTER_HELP: &str = "\
stdio: runs the MCP server COMMAND (after `--`), passes every byte between
this process's stdin/stdout and the server unchanged, and checks both
directions as one session. Findings go to stderr, with the server's own stderr.
SIGTERM, SIGINT or SIGHUP stop the server as MCP's stdio shutdown says: its
stdin is closed and the signal passed on; SIGTERM after --term-after, SIGKILL
--kill-after after SIGTERM (one second each by default).
exit status: the server's (128 + N if signal N ended it, 137 if the proxy had
to kill it); 2 if it did not start.

--http: a reverse proxy for Streamable HTTP (and the 2024-11-05 HTTP+SSE
transport): the host talks to http://ADDR/..., each request goes to URL's base
+ its path and query (http:// or https://), bodies pass as they come,
unchanged, and both directions are checked, each Mcp-Session-Id as its own
session. Runs until SIGINT/SIGTERM/SIGHUP (the recording gains HTTP lines, see
cli/README.md). With --to VERSION it is a bridge instead: it serves the
client's version of the transport itself and is an HTTP client of a VERSION
server at URL.
--enforce: a request that breaks a MUST is answered by the proxy with the
JSON-RPC error its version defines (-32602, -32600, -32700, or -32020 with
HTTP 400 for 2026-07-28's headers), naming each rule and JSON pointer; the
upstream never sees it, the recording has it. --metrics ADDR serves the
checks' counters at http://ADDR/metrics for Prometheus.
exit status: 0; 2 if it could not listen or write its files.";

fn after_help() -> String {
    format!("{AFTER_HELP}\n\nversions: {}\nextensions: {}", versions::version_names(), versions::extension_names())
}

/// Checks a live session: between a host and a stdio MCP server, or as a Streamable HTTP reverse proxy (--http).
#[derive(Debug, Args)]
#[command(args_override_self = true, override_usage = format!("{USAGE}\n       {HTTP_USAGE}"), after_help = after_help())]
pub struct ProxyCmd {
    #[command(flatten)]
    pub options: CheckOptions,
    /// Write the session as JSONL wrapper lines
    #[arg(long, value_name = "FILE", value_parser = NonEmptyStringValueParser::new())]
    pub record: Option<String>,
    /// Write findings to FILE instead of stderr
    #[arg(long, value_name = "FILE", value_parser = NonEmptyStringValueParser::new())]
    pub findings: Option<String>,
    /// Bridge: the server speaks VERSION, the client whatever it negotiates; messages are converted between the two (see cli/README.md, Bridging versions)
    #[arg(long, value_name = "VERSION", value_parser = NonEmptyStringValueParser::new())]
    pub to: Option<String>,
    /// A Streamable HTTP reverse proxy (with --listen and --upstream) instead of a stdio server
    #[arg(long)]
    pub http: bool,
    /// With --http: the address the host connects to
    #[arg(long, value_name = "HOST:PORT", requires = "http", value_parser = NonEmptyStringValueParser::new())]
    pub listen: Option<String>,
    /// With --http: the server's URL
    #[arg(long, value_name = "URL", requires = "http", value_parser = NonEmptyStringValueParser::new())]
    pub upstream: Option<String>,
    /// Stopping the stdio server on SIGINT or SIGHUP: seconds from passing the signal on (and closing its stdin) to SIGTERM
    #[arg(long, value_name = "SECONDS", default_value = "1", value_parser = seconds, conflicts_with = "http")]
    pub term_after: Duration,
    /// Stopping the stdio server: seconds from SIGTERM to SIGKILL
    #[arg(long, value_name = "SECONDS", default_value = "1", value_parser = seconds, conflicts_with = "http")]
    pub kill_after: Duration,
    /// With --http: another name clients may use for the proxy in `Host` (NAME, any port, or NAME:PORT; `*`: any); repeatable. Loopback names with the listen port, and the listen address, are always allowed
    #[arg(long, value_name = "HOST", requires = "http", value_parser = NonEmptyStringValueParser::new())]
    pub allow_host: Vec<String>,
    /// With --http: a browser origin allowed to use the proxy (`https://app.example:8443`; `*`: any); repeatable. Without one, an `Origin` must name the proxy as an allowed host does; others get 403
    #[arg(long, value_name = "ORIGIN", requires = "http", value_parser = NonEmptyStringValueParser::new())]
    pub allow_origin: Vec<String>,
    /// With --http: seconds a client may take to send a request head, and a kept-alive connection may idle between requests (0: no limit)
    #[arg(long, value_name = "SECS", requires = "http", default_value_t = http::limits::HEADER_TIMEOUT_SECS)]
    pub header_timeout: u64,
    /// With --http: connections served at once; more are answered 503 and closed [default: 512, fewer under a low `ulimit -n`]
    #[arg(long, value_name = "N", requires = "http", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections: Option<u64>,
    /// With --http: MiB of request and response bodies held at once, over all requests, to split and check them; a request past it is answered 503
    #[arg(long, value_name = "MIB", requires = "http", default_value_t = http::limits::BODY_BUDGET_MIB as u64, value_parser = clap::value_parser!(u64).range(1..))]
    pub body_budget: u64,
    /// With --http: answer a request that breaks a MUST with the JSON-RPC error its version defines (naming each rule and pointer) instead of forwarding it; the upstream never sees it. Without it everything passes and is reported
    #[arg(long, requires = "http", conflicts_with = "to")]
    pub enforce: bool,
    /// With --http: serve the checks' counters at http://HOST:PORT/metrics in Prometheus' text format: messages by method and direction, findings by rule and severity, the time each check takes (port 0: any, announced on stderr)
    #[arg(long, value_name = "HOST:PORT", requires = "http", conflicts_with = "to", value_parser = NonEmptyStringValueParser::new())]
    pub metrics: Option<String>,
    /// Internal: this process is the proxy's checker child, with its role
    #[arg(long, value_name = "ROLE", hide = true)]
    pub checker_child: Option<String>,
    /// The stdio server command and its arguments
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

impl super::Cmd for ProxyCmd {
    const NAME: &'static str = "proxy";
    type Args = ProxyArgs;

    /// Runs `proxy` in the mode the arguments ask for: the checker child, the HTTP proxy or bridge
    /// (`--http`), or the stdio proxy with its forwarders or the bridge (`--to`) carrying the traffic.
    fn run(a: &ProxyArgs) -> i32 {
        if let Some(role) = &a.checker_child {
            return crate::proxy::checking::child_main(&a.check, role);
        }
        match (&a.http, a.to) {
            (Some(target), Some(to)) => crate::bridge::http::run(a, target, to),
            (Some(target), None) => http::run(a, target),
            (None, Some(to)) => crate::proxy::run_stdio(a, Box::new(move |server_in, server_out, sinks| crate::bridge::stdio::start(to, server_in, server_out, sinks))),
            (None, None) => crate::proxy::run_stdio(a, Box::new(crate::proxy::forward_both)),
        }
    }

    fn usage(args: &[String]) -> &'static str {
        if args.iter().any(|a| a == "--http") {
            HTTP_USAGE
        } else {
            USAGE
        }
    }

    fn resolve(self) -> Result<ProxyArgs, UsageError> {
        let to = match &self.to {
            None => None,
            Some(v) => match versions::version_index(v) {
                Some(i) => Some(i),
                None => return Err(UsageError(format!("--to: unknown protocol version `{v}` (known: {})", versions::version_names()))),
            },
        };
        let http = if self.http {
            if !self.command.is_empty() {
                return Err(UsageError("proxy --http takes no server command (`--`): it forwards to --upstream URL".into()));
            }
            let (Some(listen), Some(upstream)) = (self.listen, self.upstream) else {
                return Err(UsageError("proxy --http needs --listen ADDR and --upstream URL".into()));
            };
            let serve = http::ServeOptions {
                allow_hosts: self.allow_host,
                allow_origins: self.allow_origin,
                header_timeout: (self.header_timeout > 0).then(|| std::time::Duration::from_secs(self.header_timeout)),
                max_connections: self.max_connections.map_or_else(http::limits::default_max_connections, |n| usize::try_from(n).unwrap_or(usize::MAX)),
                body_budget: usize::try_from(self.body_budget).unwrap_or(usize::MAX).saturating_mul(1 << 20),
            };
            let target = http::Target::new(listen, &upstream, serve).map_err(UsageError)?;
            Some(Box::new(http::Target { enforce: self.enforce, metrics: self.metrics, ..target }))
        } else {
            // The checker child reads its framed lines on stdin (`-- -`).
            if self.command.is_empty() {
                return Err(UsageError("no server command: it goes after `--`".into()));
            }
            None
        };
        if self.record.is_some() && self.record == self.findings {
            return Err(UsageError("--record and --findings name the same file".into()));
        }
        let check = self.options.to_check_args(vec!["-".to_string()]);
        let check_options = self.options.to_args();
        Ok(ProxyArgs { check, record: self.record, findings: self.findings, command: self.command, check_options, checker_child: self.checker_child, to, http, stop: StopTimes { term_after: self.term_after, kill_after: self.kill_after } })
    }
}

/// A wait of the stop: seconds, decimals allowed, at most an hour.
fn seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(secs) if (0.0..=3600.0).contains(&secs) => Ok(Duration::from_secs_f64(secs)),
        _ => Err(format!("`{s}` is not a number of seconds from 0 to 3600")),
    }
}

