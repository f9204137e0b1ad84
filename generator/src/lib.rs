//! Reads the MCP TypeScript schemas and writes the Rust crate in `generated/`.
//!
//! The pipeline has four stages, one module each: [`parse`] (swc -> syntax
//! declarations), [`ir`] (the resolved type space), [`resolve`] (syntax -> IR,
//! ending with the layout pass that decides what emit writes), and [`emit`]
//! (IR -> Rust source). ARCHITECTURE.md at the repository root maps them. This crate does no disk I/O: the caller
//! hands it file contents and writes what it returns.

#![forbid(unsafe_code)]

pub mod diagnostics;
pub mod parse;
pub mod config;
pub mod ir;
pub mod names;
pub mod overlay;
pub mod resolve;
pub mod emit;
pub mod verify;
pub mod diff;

pub use config::{Config, InputFile, InputOrigin};
pub use diagnostics::{Diagnostic, Diagnostics, Location};
pub use emit::{GeneratedFile, Part, FEATURES_BEGIN, FEATURES_END, GENERATED_DIR};

/// One input file: its path relative to the synced upstream folder, and its text.
#[derive(Debug, Clone)]
pub struct Input {
    pub path: String,
    pub source: String,
}

/// Parses the inputs, applies overlays and resolves everything: the type space
/// the emitters (and `verify`, `diff`) read. `inputs` must hold the file of every
/// configured module and overlay.
pub fn type_space(inputs: &[Input], config: &Config) -> Result<ir::TypeSpace, Diagnostics> {
    let mut diags = Diagnostics::default();
    let mut files = Vec::new();
    let read = |path: &str, diags: &mut Diagnostics| -> Option<parse::File> {
        match inputs.iter().find(|i| i.path == path) {
            Some(input) => parse::parse_file(&input.path, &input.source).map_err(|d| diags.0.extend(d.0)).ok(),
            None => {
                diags.push(Diagnostic::new(&Location { file: path.to_string(), ..Location::default() }, "this input was not provided"));
                None
            }
        }
    };
    for m in &config.modules {
        let Some(mut base) = read(&m.input, &mut diags) else { continue };
        if let Err(d) = overlay::add_declared_unions(&mut base, m, &config.unions) {
            diags.0.extend(d.0);
            continue;
        }
        match &m.overlay {
            None => files.push(base),
            Some(path) => {
                let Some(ov) = read(path, &mut diags) else { continue };
                match overlay::apply(&base, &ov) {
                    Ok(f) => files.push(f),
                    Err(d) => diags.0.extend(d.0),
                }
            }
        }
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    resolve::resolve(&files, config)
}

/// Runs the whole pipeline.
pub fn generate(inputs: &[Input], config: &Config) -> Result<Vec<GeneratedFile>, Diagnostics> {
    let space = type_space(inputs, config)?;
    Ok(emit::emit(&space, config))
}
