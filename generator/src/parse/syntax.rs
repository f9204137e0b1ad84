//! The syntax-level declarations stage 1 produces: what the schema says, before names are resolved.

use super::jsdoc::Doc;
use crate::diagnostics::Location;

/// One parsed input file, declarations in source order.
#[derive(Debug, Clone)]
pub struct File {
    pub path: String,
    pub imports: Vec<Import>,
    pub decls: Vec<Decl>,
}

/// `import type { A, B as C } from "module"`.
#[derive(Debug, Clone)]
pub struct Import {
    pub module: String,
    pub imported: String,
    pub local: String,
    pub location: Location,
}

#[derive(Debug, Clone)]
pub struct Decl {
    pub name: String,
    pub exported: bool,
    pub doc: Doc,
    pub location: Location,
    pub kind: DeclKind,
}

#[derive(Debug, Clone)]
pub enum DeclKind {
    Interface { extends: Vec<TypeExpr>, body: ObjectType },
    Alias(TypeExpr),
    /// `const X = <literal>` or `declare const X: <type>`.
    Const(ConstValue),
}

#[derive(Debug, Clone)]
pub enum ConstValue {
    Literal(Literal),
    Typed(TypeExpr),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    Str(String),
    /// Kept as written so integers stay exact.
    Num(String),
    Bool(bool),
}

impl Literal {
    pub fn describe(&self) -> String {
        match self {
            Literal::Str(s) => format!("{s:?}"),
            Literal::Num(n) => n.clone(),
            Literal::Bool(b) => b.to_string(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keyword {
    String,
    Number,
    Boolean,
    Null,
    Undefined,
    Unknown,
    Any,
    Never,
    Object,
}

#[derive(Debug, Clone)]
pub struct TypeExpr {
    pub location: Location,
    pub kind: TypeKind,
}

#[derive(Debug, Clone)]
pub enum TypeKind {
    Keyword(Keyword),
    Literal(Literal),
    /// A named type, possibly generic: `Foo`, `Omit<A, "x">`, `Record<K, V>`, `Array<T>`.
    Ref { name: String, args: Vec<TypeExpr> },
    Array(Box<TypeExpr>),
    Union(Vec<TypeExpr>),
    Intersection(Vec<TypeExpr>),
    Object(ObjectType),
    /// `typeof CONSTANT`.
    TypeOf(String),
    /// `T["key"]`.
    Indexed { object: Box<TypeExpr>, key: String },
}

#[derive(Debug, Clone, Default)]
pub struct ObjectType {
    pub members: Vec<Member>,
    /// `[key: string]: T`.
    pub index: Option<Box<TypeExpr>>,
}

#[derive(Debug, Clone)]
pub struct Member {
    pub name: String,
    pub optional: bool,
    pub ty: TypeExpr,
    pub doc: Doc,
    pub location: Location,
}
