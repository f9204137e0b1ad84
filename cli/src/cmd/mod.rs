//! The command line: one module per subcommand with its arguments (clap derive), usage and run,
//! each registered once in `subcommands!`'s list below; this module parses and dispatches.
//!
//! Adding a subcommand: a file here whose argument type implements [`Cmd`], its `pub mod` line,
//! and its line in the list (ARCHITECTURE.md, "Adding a subcommand").

pub mod check;
pub mod completions;
pub mod convert;
pub mod proxy;
pub mod rules;
#[cfg(test)]
mod tests;

use std::io::{self, Write};

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};

use crate::args::UsageError;

/// What a subcommand's module gives: its arguments as clap reads them, checked into what it runs on,
/// and how it runs.
pub trait Cmd: clap::Args + Sized {
    /// Its name on the command line (clap's name for the variant: checked by a test).
    const NAME: &'static str;
    /// What it runs on, once its arguments are checked.
    type Args: std::fmt::Debug;
    /// The checks clap cannot make (names that must exist, options that exclude each other).
    fn resolve(self) -> Result<Self::Args, UsageError>;
    /// Runs it; the process's exit status.
    fn run(args: &Self::Args) -> i32;
    /// The usage line printed under a usage error; `args` are the whole command line, for a
    /// subcommand with one usage per mode.
    fn usage(args: &[String]) -> &'static str;
}

/// The one list of subcommands: each line makes its clap variant, its [`Command`] variant, its
/// dispatch and its usage line.
macro_rules! subcommands {
    ($($variant:ident($cmd:ty)),* $(,)?) => {
        #[derive(Debug, clap::Subcommand)]
        enum Sub {
            $($variant($cmd),)*
        }

        /// A parsed command line.
        #[derive(Debug)]
        pub enum Command {
            $($variant(<$cmd as Cmd>::Args),)*
            /// `--help` or `--version`: the text for standard output (exit status 0).
            Print(String),
        }

        /// The subcommands' names, in the list's order.
        const NAMES: &[&str] = &[$(<$cmd as Cmd>::NAME,)*];

        fn resolve(sub: Sub) -> Result<Command, UsageError> {
            match sub {
                $(Sub::$variant(c) => c.resolve().map(Command::$variant),)*
            }
        }

        fn dispatch(command: &Command) -> i32 {
            match command {
                $(Command::$variant(a) => <$cmd as Cmd>::run(a),)*
                Command::Print(text) => {
                    let _ = io::stdout().lock().write_all(text.as_bytes());
                    0
                }
            }
        }

        fn subcommand_usage(args: &[String]) -> Option<&'static str> {
            let first = args.first()?;
            $(if first == <$cmd as Cmd>::NAME {
                return Some(<$cmd as Cmd>::usage(args));
            })*
            None
        }
    };
}

subcommands! {
    Check(check::CheckCmd),
    Proxy(proxy::ProxyCmd),
    Convert(convert::ConvertCmd),
    Rules(rules::RulesCmd),
    Completions(completions::CompletionsCmd),
}

/// Checks MCP traffic and documents against every schema version, proxies a live session, converts between versions, lists the rules.
#[derive(Debug, Parser)]
#[command(name = "mcp-schema", version, subcommand_required = true, after_help = "exit status: 0 nothing failed, 1 something failed, 2 usage or I/O error (see each command's --help).")]
struct Cli {
    #[command(subcommand)]
    command: Sub,
}

/// The clap command of the whole command line (for completion scripts).
fn cli_command() -> clap::Command {
    Cli::command()
}

/// `a`, `b` and `c`, each in backticks.
fn listed(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
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
            return Err(UsageError(format!("no command given (the commands are {})", listed(NAMES))))
        }
        Err(e) => return Err(UsageError(message(&e.render().to_string()))),
    };
    resolve(cli.command)
}

/// clap's error without its usage and help lines, on one line: what is wrong (naming the option) and
/// its tips.
fn message(rendered: &str) -> String {
    let lines = rendered.lines().take_while(|l| !l.starts_with("Usage:")).map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("For more information"));
    let text = lines.collect::<Vec<_>>().join(" ");
    text.strip_prefix("error: ").unwrap_or(&text).to_string()
}

/// The usage line printed under a usage error, by the subcommand the arguments name.
fn usage_line(args: &[String]) -> String {
    subcommand_usage(args).map_or_else(|| format!("mcp-schema <{}> ...", NAMES.join("|")), str::to_string)
}

/// Runs the command line (without the program name); returns the exit status.
pub fn run(args: &[String]) -> i32 {
    match parse(args) {
        Err(e) => {
            let _ = writeln!(io::stderr().lock(), "mcp-schema: {e}\nusage: {} (see --help)", usage_line(args));
            2
        }
        Ok(command) => dispatch(&command),
    }
}
