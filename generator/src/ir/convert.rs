//! The plan of the conversions between protocol versions, as data: which types pair up between
//! adjacent versions, how each pair's fields and members move, which conversions go through the
//! versions in between, and every case that is not a plain copy (the rows of `CONVERSIONS.md`).
//! `resolve::layout::convert` decides it; `emit::convert` only writes it out.

use std::collections::BTreeSet;

use super::TypeRef;
use crate::parse::Literal;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConvertPlan {
    /// The protocol versions that convert, oldest first.
    pub versions: Vec<PlanVersion>,
    /// Steps between adjacent versions: `2 * i` is version `i` -> `i + 1`, `2 * i + 1` the way back.
    pub steps: Vec<ConvertStep>,
    /// Conversions between versions further apart, each through the next version on the way.
    pub chains: Vec<Chain>,
    /// Types that are one Rust type in two versions (a shared module): they convert to themselves.
    pub identity: BTreeSet<TypeRef>,
    /// Every named conversion, sorted by (type, from, to): the run-time table `convert_json` reads.
    pub routes: Vec<Route>,
    /// Request types of a side that sends no requests in another version.
    pub no_requests: Vec<NoRequests>,
    /// Every case that is not a plain field-by-field copy, in the order of `CONVERSIONS.md`.
    pub cases: Vec<Case>,
}

/// A protocol version: its module and the version string its messages carry.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanVersion {
    pub module: String,
    pub protocol: String,
}

/// One direction between adjacent versions (indices into [`ConvertPlan::versions`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ConvertStep {
    pub from: usize,
    pub to: usize,
    /// Its pairs, in the order they were found (those the types of the source version need come after them).
    pub pairs: Vec<Pair>,
}

/// Two nominal types (at their home module) and how one becomes the other.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    pub src: TypeRef,
    pub dst: TypeRef,
    pub how: PairConversion,
}

#[derive(Debug, Clone, PartialEq)]
pub enum PairConversion {
    /// As a whole through JSON (a typed index signature leaves no `extra` to keep keys in); the case's place.
    ViaJson { place: String },
    /// Field by field: first the source's fields the target lacks, then every target field.
    Struct { source_only: Vec<SourceOnly>, fields: Vec<TargetField> },
    /// Values the target does not have fail (with the variant's Rust name and the case's place); the others map by wire value.
    Enum { not_in_target: Vec<(String, String)> },
    /// Member by member.
    Union { arms: Vec<Arm>, unknown: Option<UnknownArm> },
    /// The member that is the target struct converts; the others fail.
    UnionToStruct { arms: Vec<Arm>, unknown: Option<UnknownArm> },
    /// Into the member that holds it ([`Target::Convert`] with a variant), or [`Target::NotInTarget`].
    StructToUnion(Target),
}

/// A source field the target does not define.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceOnly {
    /// The wire name.
    pub key: String,
    /// The Rust field name.
    pub ident: String,
    pub optional: bool,
    pub literal: Option<Literal>,
    /// `Some(place)`: refused (`[[convert.refuse]]`), converting fails when it is set; `None`: kept in the target's `extra`.
    pub refused: Option<String>,
}

/// A target field and where its value comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetField {
    pub key: String,
    pub ident: String,
    pub fill: Fill,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Fill {
    /// The source does not define it: taken from the source's `extra`; `boxed` when the target stores it boxed.
    FromExtra { take: Take, boxed: bool },
    /// The same literal on both sides.
    SameLiteral(SameLiteral),
    /// A literal on one side only, or two different ones: the value cannot be carried (the case's place).
    OtherLiteral { place: String },
    /// The source's field of the same name.
    Copy(FieldCopy),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Take {
    /// A required literal: checked, not stored; `Missing` unless `extra` has it.
    Literal { value: Literal, place: String },
    /// An optional literal (a flag): set when `extra` has it.
    Flag { value: Literal },
    /// A required field (or one read leniently but required by the schema, `Some(..)` when `optional`).
    Required { place: String, optional: bool },
    /// An optional field; `keep_null` when a JSON `null` is a value to keep rather than absence.
    Optional { keep_null: bool },
}

#[derive(Debug, Clone, PartialEq)]
pub enum SameLiteral {
    /// The target's flag: the source's flag (its Rust name) when it is optional, else set.
    Flag { source: Option<String> },
    /// Required in the target, optional in the source: `Missing` (the case's place) when the source's flag is unset.
    Check { source: String, place: String },
    /// Required on both sides: nothing to carry.
    Nothing,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FieldCopy {
    /// The source field's Rust name.
    pub source: String,
    pub source_optional: bool,
    pub source_boxed: bool,
    /// Required in the target, optional in the source: `Missing` (the case's place) when absent.
    pub need: Option<String>,
    /// `Some(place)`: the shapes differ and the value goes through JSON; `None`: by `Convert`.
    pub via_json: Option<String>,
    pub target_optional: bool,
    pub target_boxed: bool,
}

/// One member of a source union.
#[derive(Debug, Clone, PartialEq)]
pub struct Arm {
    /// The source variant.
    pub variant: String,
    /// Whether the source stores the member boxed.
    pub boxed: bool,
    pub to: Target,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// By `Convert`: into this variant of the target union (`None`: the target is the struct itself).
    Convert { variant: Option<String>, boxed: bool },
    /// Through JSON into this variant (the shapes differ; the case's place).
    ViaJson { variant: String, boxed: bool, place: String },
    /// The target has no such member (the case's place).
    NotInTarget { place: String },
}

/// A member the source version does not define (`Unknown`).
#[derive(Debug, Clone, PartialEq)]
pub enum UnknownArm {
    /// Kept as the target's `Unknown`.
    Keep,
    /// The target has no `Unknown`: fails (the case's place).
    Refuse { place: String },
}

/// A conversion between versions two or more apart: `src` -> `mid` (the next version) -> `dst`.
#[derive(Debug, Clone, PartialEq)]
pub struct Chain {
    pub src: TypeRef,
    pub mid: TypeRef,
    pub dst: TypeRef,
}

/// A Rust type by its module and Rust name.
#[derive(Debug, Clone, PartialEq)]
pub struct RustPath {
    pub module: String,
    pub name: String,
}

/// One row of the run-time table: a type by schema name from one protocol version to another.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub name: String,
    pub from: String,
    pub to: String,
    /// Its schema name in the target version.
    pub target: String,
    pub src: RustPath,
    pub dst: RustPath,
}

/// A request type that converts to `NoRequests` by failing.
#[derive(Debug, Clone, PartialEq)]
pub struct NoRequests {
    pub src: TypeRef,
    pub from: String,
    pub to: String,
    pub place: String,
}

/// One row of `CONVERSIONS.md`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Case {
    pub from: String,
    pub to: String,
    /// `Type.member`, also what the error's `case` says.
    pub place: String,
    pub what: String,
    pub outcome: String,
}
