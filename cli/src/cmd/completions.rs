//! `mcp-schema completions SHELL`: a completion script for the whole command line.

use std::io::{self, Write};

use clap::Args;

use crate::args::UsageError;

/// Prints a completion script for SHELL (e.g. `source <(mcp-schema completions bash)`)
#[derive(Debug, Args)]
pub struct CompletionsCmd {
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

impl super::Cmd for CompletionsCmd {
    const NAME: &'static str = "completions";
    /// The script.
    type Args = String;

    fn resolve(self) -> Result<String, UsageError> {
        let mut script = Vec::new();
        clap_complete::generate(self.shell, &mut super::cli_command(), "mcp-schema", &mut script);
        Ok(String::from_utf8_lossy(&script).into_owned())
    }

    fn run(script: &String) -> i32 {
        let _ = io::stdout().lock().write_all(script.as_bytes());
        0
    }

    fn usage(_: &[String]) -> &'static str {
        "mcp-schema completions <bash|elvish|fish|powershell|zsh>"
    }
}
