//! `mcp-schema convert`: its arguments and its run.

use std::io;

use clap::Args;

use super::check::{positive, protocol, version};
use crate::args::{Protocol, UsageError, DEFAULT_MAX_FINDINGS};
use crate::convert::ConvertArgs;
use crate::versions;

pub const USAGE: &str = "mcp-schema convert --to VERSION [--from VERSION|auto] [--max-findings N] FILE...";

const AFTER_HELP: &str = "\
FILE is read like `check` reads it (a .json file holding one value, JSONL
otherwise, `-` for standard input; a JSONL line is a bare message or a wrapper
{\"msg\": ..., \"dir\": ..., \"protocol\": ..., \"type\": ...}); each converted
value is written to standard output in the same format as soon as it is
converted. Each value is checked first as `check --protocol FROM` checks it:
one that fails is not converted. Findings go to standard error as `check`
prints them (FILE:LINE: POINTER: SEVERITY [RULE]: MESSAGE); a refused value is
left out.

exit status: 0 everything converted, 1 something failed, 2 usage or I/O error.";

fn after_help() -> String {
    format!("{AFTER_HELP}\nversions: {}", versions::version_names())
}

/// Converts MCP messages to another protocol version.
#[derive(Debug, Args)]
#[command(args_override_self = true, after_help = after_help())]
pub struct ConvertCmd {
    /// The version to convert to
    #[arg(long, value_name = "VERSION", value_parser = version)]
    pub to: usize,
    /// The version of the input (auto: the line's `protocol`, else what the stream negotiated, else the latest)
    #[arg(long, value_name = "VERSION|auto", default_value = "auto", value_parser = protocol)]
    pub from: Protocol,
    /// Findings printed per value; the rest are counted in one "and N more" line
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_FINDINGS, value_parser = positive)]
    pub max_findings: usize,
    /// Files to convert (`-` for standard input)
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,
}

impl super::Cmd for ConvertCmd {
    const NAME: &'static str = "convert";
    type Args = ConvertArgs;

    /// Converts every file, writing to standard output.
    fn run(a: &ConvertArgs) -> i32 {
        crate::convert::convert_files(a, io::stdout().lock(), &mut io::stderr().lock())
    }

    fn usage(_: &[String]) -> &'static str {
        USAGE
    }

    fn resolve(self) -> Result<ConvertArgs, UsageError> {
        Ok(ConvertArgs { to: self.to, from: self.from, max_findings: self.max_findings, files: self.files })
    }
}

