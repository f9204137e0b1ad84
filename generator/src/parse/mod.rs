//! Stage 1: read TypeScript with swc and lower it into syntax-level declarations.
//!
//! Only the type-level subset the MCP schemas use is accepted; anything else is
//! reported with its `file:line:col` instead of being skipped.

mod jsdoc;
mod lower;
mod syntax;

pub use jsdoc::{Constraint, Doc, Format, Tag, TagKind};
pub use lower::parse_file;
pub use syntax::*;
