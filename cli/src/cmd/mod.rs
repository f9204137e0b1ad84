//! The command line: one module per subcommand with its arguments (clap derive), usage and run;
//! this module parses and dispatches.

pub mod check;
pub mod convert;
pub mod proxy;
pub mod rules;
#[cfg(test)]
mod tests;

use std::io::{self, Write};

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser, Subcommand};

use crate::args::{CheckArgs, UsageError};
use crate::convert::ConvertArgs;
use crate::proxy::ProxyArgs;

/// Checks MCP traffic and documents against every schema version, proxies a live session, converts between versions, lists the rules.
#[derive(Debug, Parser)]
#[command(name = "mcp-schema", version, subcommand_required = true, after_help = "exit status: 0 nothing failed, 1 something failed, 2 usage or I/O error (see each command's --help).")]
struct Cli {
    #[command(subcommand)]
    command: Sub,
}

#[derive(Debug, Subcommand)]
enum Sub {
    Check(check::CheckCmd),
    Proxy(proxy::ProxyCmd),
    Convert(convert::ConvertCmd),
    Rules(rules::RulesCmd),
    /// Prints a completion script for SHELL (e.g. `source <(mcp-schema completions bash)`)
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// A parsed command line.
#[derive(Debug)]
pub enum Command {
    Check(CheckArgs),
    Convert(ConvertArgs),
    Proxy(ProxyArgs),
    Rules(rules::RulesCmd),
    /// `--help` or `--version`: the text for standard output (exit status 0).
    Print(String),
}

/// Parses the arguments after the program name.
pub fn parse(args: &[String]) -> Result<Command, UsageError> {
    let cli = match Cli::try_parse_from(std::iter::once("mcp-schema").chain(args.iter().map(String::as_str))) {
        Ok(c) => c,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let mut text = e.render().to_string();
            if !text.ends_with('\n') {
                text.push('\n');
            }
            return Ok(Command::Print(text));
        }
        // clap's first line names the option; its usage and tips are replaced by ours (`run`).
        Err(e) if matches!(e.kind(), ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand) => {
            return Err(UsageError("no command given (the commands are `check`, `proxy`, `convert`, `rules` and `completions`)".into()))
        }
        Err(e) => return Err(UsageError(message(&e.render().to_string()))),
    };
    match cli.command {
        Sub::Check(c) => c.resolve().map(Command::Check),
        Sub::Proxy(c) => c.resolve().map(Command::Proxy),
        Sub::Convert(c) => c.resolve().map(Command::Convert),
        Sub::Rules(c) => c.resolve().map(Command::Rules),
        Sub::Completions { shell } => {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "mcp-schema", &mut script);
            Ok(Command::Print(String::from_utf8_lossy(&script).into_owned()))
        }
    }
}

/// clap's error without its usage and help lines, on one line: what is wrong (naming the option) and
/// its tips.
fn message(rendered: &str) -> String {
    let lines = rendered.lines().take_while(|l| !l.starts_with("Usage:")).map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("For more information"));
    let text = lines.collect::<Vec<_>>().join(" ");
    text.strip_prefix("error: ").unwrap_or(&text).to_string()
}

/// The usage line printed under a usage error, by the subcommand the arguments name.
fn usage_line(args: &[String]) -> &'static str {
    match args.first().map(String::as_str) {
        Some("proxy") if args.iter().any(|a| a == "--http") => proxy::HTTP_USAGE,
        Some("proxy") => proxy::USAGE,
        Some("convert") => convert::USAGE,
        Some("check") => check::USAGE,
        Some("rules") => rules::USAGE,
        Some("completions") => "mcp-schema completions <bash|elvish|fish|powershell|zsh>",
        _ => "mcp-schema <check|proxy|convert|rules|completions> ...",
    }
}

/// Runs the command line (without the program name); returns the exit status.
pub fn run(args: &[String]) -> i32 {
    match parse(args) {
        Err(e) => {
            let _ = writeln!(io::stderr().lock(), "mcp-schema: {e}\nusage: {} (see --help)", usage_line(args));
            2
        }
        Ok(Command::Print(text)) => {
            let _ = io::stdout().lock().write_all(text.as_bytes());
            0
        }
        Ok(Command::Check(a)) => check::run(&a),
        Ok(Command::Convert(a)) => convert::run(&a),
        Ok(Command::Proxy(a)) => proxy::run(&a),
        Ok(Command::Rules(c)) => rules::run(&c),
    }
}
