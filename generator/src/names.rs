//! Rust names for schema names.

use heck::{ToSnakeCase, ToUpperCamelCase};
use proc_macro2::Ident;
use quote::format_ident;

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// A field name: snake case, raw identifier for keywords (`type` -> `r#type`).
pub fn field_ident(wire: &str) -> Ident {
    let snake = wire.to_snake_case();
    let snake = if snake.is_empty() { "value".to_string() } else { snake };
    let snake = if snake.starts_with(|c: char| c.is_ascii_digit()) { format!("n{snake}") } else { snake };
    if matches!(snake.as_str(), "self" | "Self" | "super" | "crate") {
        format_ident!("{}_", snake)
    } else if KEYWORDS.contains(&snake.as_str()) {
        format_ident!("r#{}", snake)
    } else {
        format_ident!("{}", snake)
    }
}

/// A variant name for a string value: `"input_required"` -> `InputRequired`, `"--font-sans"` -> `FontSans`.
pub fn value_variant(value: &str) -> String {
    let camel = value.to_upper_camel_case();
    if camel.is_empty() {
        "Empty".to_string()
    } else if camel.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{camel}")
    } else {
        camel
    }
}

pub fn type_ident(name: &str) -> Ident {
    format_ident!("{}", name)
}

pub fn builder_ident(name: &str) -> Ident {
    format_ident!("__{}Builder", name)
}
