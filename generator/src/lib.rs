//! Reads the MCP TypeScript schemas and writes the Rust crate in `generated/`.
//!
//! The pipeline has four stages, one module each: [`parse`] (swc -> syntax
//! declarations), [`ir`] (the resolved type space), [`resolve`] (syntax -> IR),
//! and [`emit`] (IR -> Rust source). This crate does no disk I/O: the caller
//! hands it file contents and writes what it returns.


pub mod diagnostics;
pub mod parse;
pub mod config;
pub mod ir;
pub mod names;
pub mod resolve;
pub mod emit;

pub use config::Config;
pub use diagnostics::{Diagnostic, Diagnostics, Location};
pub use emit::GeneratedFile;

/// One input file: its path relative to the synced upstream folder, and its text.
#[derive(Debug, Clone)]
pub struct Input {
    pub path: String,
    pub source: String,
}

/// Runs the whole pipeline. `inputs` must hold the file of every configured module.
pub fn generate(inputs: &[Input], config: &Config) -> Result<Vec<GeneratedFile>, Diagnostics> {
    let mut diags = Diagnostics::default();
    let mut files = Vec::new();
    for m in &config.modules {
        match inputs.iter().find(|i| i.path == m.input) {
            Some(input) => match parse::parse_file(&input.path, &input.source) {
                Ok(f) => files.push(f),
                Err(d) => diags.0.extend(d.0),
            },
            None => diags.push(Diagnostic::new(&Location { file: m.input.clone(), ..Location::default() }, format!("input of module `{}` was not provided", m.name))),
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    let space = resolve::resolve(&files, config)?;
    Ok(emit::emit(&space, config))
}
