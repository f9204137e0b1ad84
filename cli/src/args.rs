//! Command-line arguments of `mcp-schema check`, parsed by hand (the surface is small).

use std::fmt;

use crate::versions::{self, EXTENSIONS, VERSIONS};

pub const USAGE: &str = "\
usage: mcp-schema check [OPTIONS] FILE...
       mcp-schema convert --to VERSION [--from VERSION|auto] FILE...  (see convert --help)

Checks MCP messages and documents against the schema of a protocol version.
FILE is a .json file holding one value, a JSONL file (any other extension)
holding one value per line, or `-` for JSONL on standard input; a HAR (HTTP
Archive: a .har file, or any file starting `{\"log\"`) is read for its MCP
requests and JSON or SSE responses. A JSONL line is
a bare value or {\"msg\": ..., \"dir\": \"c2s\"|\"s2c\", \"protocol\": ..., \"type\": ...}.

options:
  --protocol VERSION|auto  schema version (default auto: the line's `protocol`,
                           else what the stream negotiated, else the latest)
  --ext NAME               turn on an extension (repeatable): EXTS
  --type TYPE              check each value as this schema type, not as a message
  --roundtrip              also check that re-serializing gives the same JSON
  --no-validate            only check typed reading (no validation rules)
  --strict                 warnings are errors
  --max-findings N         findings kept and printed per value (default 100);
                           the rest are counted (`and M more`)
  --json                   print results as JSON lines (see cli/README.md)
  --summary                at the end: messages per method and direction,
                           findings per rule, unanswered requests
  -h, --help               print this help

exit status: 0 nothing failed, 1 something failed, 2 usage or I/O error.
versions: VERSIONS

usage: mcp-schema proxy [OPTIONS] -- COMMAND [ARGS...]

Runs the stdio MCP server COMMAND, passes every byte between this process's
stdin/stdout and the server unchanged, and checks both directions as one
session. Findings go to stderr, with the server's own stderr.

options: those of check but --type, and
  --record FILE            write the session as JSONL wrapper lines
  --findings FILE          write findings to FILE instead of stderr
  --to VERSION             bridge: the server speaks VERSION, the client whatever
                           it negotiates; messages are converted between the two
                           (verdict per message in the recording and --summary;
                           see cli/README.md, Bridging versions)

exit status: the server's (128 + N if signal N ended it); 2 if it did not start.

usage: mcp-schema proxy --http --listen ADDR --upstream URL [OPTIONS]

A reverse proxy for Streamable HTTP (and the 2024-11-05 HTTP+SSE transport):
the host talks to http://ADDR/..., each request goes to URL's base + its
path and query (http:// or https://), bodies pass as they come, unchanged,
and both directions are checked, each Mcp-Session-Id as its own session.
Runs until SIGINT/SIGTERM/SIGHUP. Options: those of check but --type,
--record and --findings (the recording gains HTTP lines, see cli/README.md).
With --to VERSION it is a bridge instead: it serves the client's version of
the transport itself and is an HTTP client of a VERSION server at URL.

exit status: 0; 2 if it could not listen or write its files.
";

pub fn usage() -> String {
    USAGE.replace("EXTS", &versions::extension_names()).replace("VERSIONS", &versions::version_names())
}

/// `--protocol`: a fixed version (index into [`VERSIONS`]) or auto.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Auto,
    Fixed(usize),
}

#[derive(Debug, Clone)]
pub struct CheckArgs {
    pub protocol: Protocol,
    /// Indices into [`EXTENSIONS`].
    pub extensions: Vec<usize>,
    pub type_name: Option<String>,
    pub roundtrip: bool,
    pub validate: bool,
    pub strict: bool,
    pub json: bool,
    /// `--summary`: print the session summary before the counts.
    pub summary: bool,
    /// Findings kept per value; the rest are only counted, so memory stays bounded.
    pub max_findings: usize,
    pub files: Vec<String>,
}

/// Findings kept per value unless `--max-findings` says otherwise.
pub const DEFAULT_MAX_FINDINGS: usize = 100;

impl Default for CheckArgs {
    fn default() -> Self {
        CheckArgs {
            protocol: Protocol::Auto,
            extensions: Vec::new(),
            type_name: None,
            roundtrip: false,
            validate: true,
            strict: false,
            json: false,
            summary: false,
            max_findings: DEFAULT_MAX_FINDINGS,
            files: Vec::new(),
        }
    }
}

#[derive(Debug)]
pub enum Command {
    Help,
    Check(CheckArgs),
    Convert(crate::convert::ConvertArgs),
    ConvertHelp,
    Proxy(crate::proxy::ProxyArgs),
}

/// A usage error: printed with the usage line, exit status 2.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err<T>(msg: impl Into<String>) -> Result<T, UsageError> {
    Err(UsageError(msg.into()))
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Command, UsageError> {
    let mut it = args.iter();
    match it.next().map(String::as_str) {
        None => return err("no command given"),
        Some("-h" | "--help" | "help") => return Ok(Command::Help),
        Some("check") => {}
        Some("convert") => {
            let rest: Vec<String> = it.cloned().collect();
            return Ok(crate::convert::parse(&rest)?.map_or(Command::ConvertHelp, Command::Convert));
        }
        Some("proxy") => return crate::proxy::parse_args(it.as_slice()),
        Some(other) => return err(format!("unknown command `{other}` (the commands are `check`, `convert` and `proxy`)")),
    }
    let mut out = CheckArgs::default();
    let mut only_files = false;
    while let Some(arg) = it.next() {
        if only_files || arg == "-" || !arg.starts_with('-') {
            out.files.push(arg.clone());
            continue;
        }
        // `--flag=value` or `--flag value`.
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = |name: &str| -> Result<String, UsageError> {
            match inline.clone().or_else(|| it.next().cloned()) {
                Some(v) => Ok(v),
                None => err(format!("{name} needs a value")),
            }
        };
        let no_value = |inline: &Option<String>| -> Result<(), UsageError> {
            match inline {
                Some(_) => err(format!("{flag} takes no value")),
                None => Ok(()),
            }
        };
        match flag {
            "--" => only_files = true,
            "-h" | "--help" => return Ok(Command::Help),
            "--protocol" => {
                let v = value("--protocol")?;
                out.protocol = if v == "auto" {
                    Protocol::Auto
                } else {
                    match versions::version_index(&v) {
                        Some(i) => Protocol::Fixed(i),
                        None => {
                            return err(format!(
                                "unknown protocol version `{v}` (known: auto, {})",
                                versions::version_names()
                            ))
                        }
                    }
                };
            }
            "--ext" => {
                let v = value("--ext")?;
                match EXTENSIONS.iter().position(|e| e.name == v) {
                    Some(i) if !out.extensions.contains(&i) => out.extensions.push(i),
                    Some(_) => {}
                    None => return err(format!("unknown extension `{v}` (known: {})", versions::extension_names())),
                }
            }
            "--type" => out.type_name = Some(value("--type")?),
            "--roundtrip" => {
                no_value(&inline)?;
                out.roundtrip = true
            }
            "--no-validate" => {
                no_value(&inline)?;
                out.validate = false
            }
            "--strict" => {
                no_value(&inline)?;
                out.strict = true
            }
            "--json" => {
                no_value(&inline)?;
                out.json = true
            }
            "--summary" => {
                no_value(&inline)?;
                out.summary = true
            }
            "--max-findings" => {
                let v = value("--max-findings")?;
                out.max_findings = match v.parse::<usize>() {
                    Ok(n) if n > 0 => n,
                    _ => return err(format!("--max-findings needs a positive whole number, found `{v}`")),
                };
            }
            _ => return err(format!("unknown option `{arg}`")),
        }
    }
    if out.files.is_empty() {
        return err("no FILE given (use `-` for standard input)");
    }
    if let Some(t) = &out.type_name {
        check_type_name(t, &out)?;
    }
    Ok(Command::Check(out))
}

/// `--type` must name a type of the chosen version (or of an enabled extension);
/// with `--protocol auto`, of some version.
fn check_type_name(t: &str, args: &CheckArgs) -> Result<(), UsageError> {
    let in_module = |types: &[(&str, &str)]| types.iter().any(|(n, _)| *n == t);
    let in_ext = args.extensions.iter().any(|&i| in_module(EXTENSIONS[i].module.types));
    let found = match args.protocol {
        Protocol::Fixed(i) => in_module(VERSIONS[i].types) || in_ext,
        Protocol::Auto => VERSIONS.iter().any(|m| in_module(m.types)) || in_ext,
    };
    if found {
        return Ok(());
    }
    let where_ = match args.protocol {
        Protocol::Fixed(i) => format!("version {}", VERSIONS[i].name),
        Protocol::Auto => "any version".to_string(),
    };
    let ext_hint = if EXTENSIONS.iter().any(|e| in_module(e.module.types)) {
        " (it is an extension's type: add its --ext)"
    } else {
        ""
    };
    err(format!("unknown type `{t}` in {where_}{ext_hint}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Command, UsageError> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn parses_flags() {
        let Command::Check(a) =
            p(&["check", "--protocol=2025-06-18", "--ext", "apps", "--roundtrip", "--strict", "a.jsonl", "-"]).unwrap()
        else {
            panic!()
        };
        assert_eq!(a.protocol, Protocol::Fixed(2));
        assert_eq!(a.extensions.iter().map(|&i| EXTENSIONS[i].name).collect::<Vec<_>>(), ["apps"]);
        assert!(a.roundtrip && a.strict && a.validate && !a.json);
        assert_eq!(a.files, vec!["a.jsonl", "-"]);
    }

    #[test]
    fn rejects_bad_usage() {
        assert!(p(&["check", "--protocol", "1999-01-01", "x"]).is_err());
        assert!(p(&["check", "--ext", "nope", "x"]).is_err());
        assert!(p(&["check", "--bogus", "x"]).is_err());
        assert!(p(&["check"]).is_err());
        assert!(p(&["check", "--type", "NoSuchType", "x"]).is_err());
        assert!(p(&["check", "--protocol", "2024-11-05", "--type", "ResourceLink", "x"]).is_err());
        assert!(p(&["check", "--type", "McpUiResourceMeta", "x"]).is_err());
        assert!(p(&["check", "--ext", "apps", "--type", "McpUiResourceMeta", "x"]).is_ok());
        assert!(p(&["check", "--strict=yes", "x"]).is_err());
        assert!(p(&["frobnicate"]).is_err());
        assert!(p(&["check", "--max-findings", "0", "x"]).is_err());
        assert!(p(&["check", "--max-findings=ten", "x"]).is_err());
        assert!(matches!(p(&["check", "--max-findings=7", "x"]), Ok(Command::Check(a)) if a.max_findings == 7));
    }
}
