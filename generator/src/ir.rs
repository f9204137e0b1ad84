//! Stage 2: the resolved type space every emitter reads.
//!
//! Items keep declaration order; inline types are placed right after the item
//! that contains them. Every item knows where it came from.

use crate::diagnostics::Location;
use crate::parse::{Doc, Literal};

#[derive(Debug, Clone, Default)]
pub struct TypeSpace {
    pub modules: Vec<Module>,
    /// What resolve's layout pass decided about the code of these modules.
    pub layout: Layout,
}

/// Decisions about the generated code that need the whole type space, made once by
/// `resolve::layout` and read by the emitters, keyed by IR identity (module and name).
#[derive(Debug, Clone, Default)]
pub struct Layout {
    /// Unions decided by the keys present that are read through their members' builders.
    pub keyed: std::collections::BTreeMap<TypeRef, KeyedUnion>,
    /// Structs and unions that are members, at any depth, of a keyed union: they get a key-only score.
    pub scored: std::collections::BTreeSet<TypeRef>,
    /// Per module, the items it re-exports from the module it shares with (`share_with`).
    pub shared: std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
    /// The conversions between protocol versions (`mcp_spec_types::convert`).
    pub convert: ConvertPlan,
}

/// How a keyed union is read (see `resolve::layout::keyed` for the reasons).
#[derive(Debug, Clone, PartialEq)]
pub struct KeyedUnion {
    /// Per variant, what its member is.
    pub members: Vec<KeyedMember>,
    /// Keys that decide a member on their own: `(key, variant)`.
    pub deciding: Vec<(String, usize)>,
    /// With a catch-all member: keys at which a reader that can read again guesses a struct member.
    pub guessing: Vec<(String, usize)>,
    /// Per variant, the values of its closed enum keys that other members claim.
    pub claimed: Vec<Vec<(String, Vec<String>)>>,
    /// Per variant, what rules it out before its key score counts.
    pub guards: Vec<MemberGuard>,
    /// With a catch-all member: per other member, the keys it names that rule the catch-all out.
    pub named: Vec<(usize, Vec<String>)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct KeyedMember {
    pub kind: MemberKind,
    /// The member's own item (aliases followed).
    pub item: TypeRef,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberKind {
    Struct,
    /// A tagged union: needs its tag before it has a builder.
    Tagged,
    /// A keyed union again.
    Keyed,
}

/// The conditions under which a keyed union's member stays a candidate; empty: none.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MemberGuard {
    /// `(key, values)`: the member is out when the key holds one of the values.
    pub claimed: Vec<(String, Vec<String>)>,
    /// For a catch-all member: it is out when any of these keys is present.
    pub rules_out: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Module {
    pub name: String,
    pub feature: String,
    pub title: String,
    pub source: String,
    /// Other generated modules this one uses, with the names it takes from each.
    pub uses: Vec<(String, Vec<String>)>,
    pub items: Vec<Item>,
    pub requests: Vec<MethodEntry>,
    pub notifications: Vec<MethodEntry>,
}

#[derive(Debug, Clone)]
pub struct MethodEntry {
    pub method: String,
    pub type_name: String,
    /// For requests: the type a successful response carries in `result`.
    pub result: Option<Ty>,
}

#[derive(Debug, Clone)]
pub struct Item {
    pub name: String,
    pub doc: Doc,
    pub location: Location,
    pub origin: Origin,
    pub kind: ItemKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    Declared { exported: bool },
    /// An anonymous type found in `parent`, at `path` (e.g. `params` or `contents[]`).
    Inline { parent: String, path: String },
}

#[derive(Debug, Clone)]
pub enum ItemKind {
    Struct(Struct),
    StringEnum(StringEnum),
    Union(Union),
    Alias(Ty),
    Const(Literal),
}

#[derive(Debug, Clone, Default)]
pub struct Struct {
    pub fields: Vec<Field>,
    /// Type of the values under keys the struct does not name: `Value` unless an index signature says otherwise.
    pub rest: Ty,
    /// Whether the schema declares an index signature (rather than the generator keeping unknown keys on its own).
    pub rest_declared: bool,
    /// Set when the struct merges alternatives (`(A | B) & C`): the alternatives' required field sets.
    pub alternatives: Vec<Vec<String>>,
}

#[derive(Debug, Clone)]
pub struct Field {
    /// Name on the wire.
    pub name: String,
    pub ty: Ty,
    pub optional: bool,
    /// Required by the schema but read leniently (`optional` is then set too); validation still requires it.
    pub lenient: Option<Lenient>,
    /// Set when the type is a single literal: checked when read, always written.
    pub literal: Option<Literal>,
    /// `never`: the key must be absent.
    pub never: bool,
    pub doc: Doc,
    pub location: Location,
}

/// How a `[[lenient_field]]` entry applies to one field, recorded where the field is declared
/// (types that inherit the field inherit this too).
#[derive(Debug, Clone, PartialEq)]
pub struct Lenient {
    /// The value constructors (`new`) write, for a string-enum field.
    pub write: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub enum Ty {
    String,
    Integer,
    Number,
    Boolean,
    Null,
    /// `unknown` / `any`: any JSON value.
    #[default]
    Value,
    /// `object`, `{}`, `Record<string, unknown>`: any JSON object.
    Object,
    Named(TypeRef),
    /// A Rust type fixed by configuration.
    Binding(String),
    Array(Box<Ty>),
    Map(Box<Ty>),
    /// `T | null`.
    Nullable(Box<Ty>),
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct TypeRef {
    pub module: String,
    pub name: String,
}

#[derive(Debug, Clone)]
pub struct StringEnum {
    pub values: Vec<String>,
    /// `"a" | "b" | string`: other strings are valid too.
    pub open: bool,
}

#[derive(Debug, Clone)]
pub struct Union {
    pub variants: Vec<Variant>,
    pub dispatch: Dispatch,
}

#[derive(Debug, Clone)]
pub struct Variant {
    pub name: String,
    pub ty: Ty,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Dispatch {
    /// Decided by the JSON kind (string, number, array, object, ...): every variant has its own kind.
    Kind,
    /// Decided by one field's literal value, read before the rest of the object.
    Tag(Tag),
    /// Decided by which keys are present; the object is buffered once.
    Shape,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Tag {
    pub field: String,
    /// Literal value -> variant index; nested unions contribute all their values.
    pub cases: Vec<(String, usize)>,
    /// Variant used when the field is absent.
    pub on_absent: Option<usize>,
    /// Variant used for values no case names; `None` keeps them in an `Unknown` variant.
    pub on_other: Option<usize>,
}

/// The JSON kind a type reads from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum JsonKind {
    Null,
    Boolean,
    Integer,
    Number,
    String,
    Array,
    Object,
    Any,
}

impl TypeSpace {
    pub fn module(&self, name: &str) -> Option<&Module> {
        self.modules.iter().find(|m| m.name == name)
    }

    pub fn item(&self, r: &TypeRef) -> Option<&Item> {
        self.module(&r.module)?.items.iter().find(|i| i.name == r.name)
    }

    /// Follows aliases to the item that defines the type's shape.
    pub fn deref<'a>(&'a self, ty: &'a Ty) -> Ty {
        let mut t = ty.clone();
        for _ in 0..64 {
            match &t {
                Ty::Named(r) => match self.item(r).map(|i| &i.kind) {
                    Some(ItemKind::Alias(inner)) => t = inner.clone(),
                    _ => return t,
                },
                _ => return t,
            }
        }
        t
    }

    pub fn kind_of(&self, ty: &Ty) -> JsonKind {
        match self.deref(ty) {
            Ty::String => JsonKind::String,
            Ty::Integer => JsonKind::Integer,
            Ty::Number => JsonKind::Number,
            Ty::Boolean => JsonKind::Boolean,
            Ty::Null => JsonKind::Null,
            Ty::Value | Ty::Nullable(_) | Ty::Binding(_) => JsonKind::Any,
            Ty::Object | Ty::Map(_) => JsonKind::Object,
            Ty::Array(_) => JsonKind::Array,
            Ty::Named(r) => match self.item(&r).map(|i| &i.kind) {
                Some(ItemKind::Struct(_)) => JsonKind::Object,
                Some(ItemKind::StringEnum(_)) => JsonKind::String,
                Some(ItemKind::Union(u)) => {
                    let kinds: Vec<JsonKind> = u.variants.iter().map(|v| self.kind_of(&v.ty)).collect();
                    if kinds.iter().all(|k| *k == kinds[0]) {
                        kinds[0]
                    } else {
                        JsonKind::Any
                    }
                }
                _ => JsonKind::Any,
            },
        }
    }

    pub fn struct_of(&self, ty: &Ty) -> Option<(&Item, &Struct)> {
        let Ty::Named(r) = self.deref(ty) else { return None };
        let item = self.item(&r)?;
        match &item.kind {
            ItemKind::Struct(s) => Some((item, s)),
            _ => None,
        }
    }

    pub fn union_of(&self, ty: &Ty) -> Option<(&Item, &Union)> {
        let Ty::Named(r) = self.deref(ty) else { return None };
        let item = self.item(&r)?;
        match &item.kind {
            ItemKind::Union(u) => Some((item, u)),
            _ => None,
        }
    }
}

// The plan of the conversions between protocol versions, as data: which types pair up between
// adjacent versions, how each pair's fields and members move, which conversions go through the
// versions in between, and every case that is not a plain copy (the rows of `CONVERSIONS.md`).
// `resolve::layout::convert` decides it; `emit::convert` only writes it out.

/// The conversions between protocol versions, decided by `resolve::layout::convert`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConvertPlan {
    /// The protocol versions that convert, oldest first.
    pub versions: Vec<PlanVersion>,
    /// Steps between adjacent versions: `2 * i` is version `i` -> `i + 1`, `2 * i + 1` the way back.
    pub steps: Vec<ConvertStep>,
    /// Conversions between versions further apart, each through the next version on the way.
    pub chains: Vec<ConvertChain>,
    /// Types that are one Rust type in two versions (a shared module): they convert to themselves.
    pub identity: std::collections::BTreeSet<TypeRef>,
    /// Every named conversion, sorted by (type, from, to): the run-time table `convert_json` reads.
    pub routes: Vec<ConvertRoute>,
    /// Request types of a side that sends no requests in another version.
    pub no_requests: Vec<NoRequests>,
    /// Every case that is not a plain field-by-field copy, in the order of `CONVERSIONS.md`.
    pub cases: Vec<ConvertCase>,
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
    pub pairs: Vec<ConvertPair>,
}

/// Two nominal types (at their home module) and how one becomes the other.
#[derive(Debug, Clone, PartialEq)]
pub struct ConvertPair {
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
    /// Into the member that holds it ([`MemberTarget::Convert`] with a variant), or [`MemberTarget::NotInTarget`].
    StructToUnion(MemberTarget),
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
    pub to: MemberTarget,
}

#[derive(Debug, Clone, PartialEq)]
pub enum MemberTarget {
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
pub struct ConvertChain {
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
pub struct ConvertRoute {
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
pub struct ConvertCase {
    pub from: String,
    pub to: String,
    /// `Type.member`, also what the error's `case` says.
    pub place: String,
    pub what: String,
    pub outcome: String,
}
