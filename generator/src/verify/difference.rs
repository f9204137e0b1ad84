//! What `verify` reports: one difference between the IR and `schema.json`, and its kind.

/// One difference between the IR and `schema.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    pub definition: String,
    /// JSON pointer in schema.json's definition ("" is the definition itself).
    pub pointer: String,
    pub kind: Kind,
    pub detail: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// A definition of schema.json the IR does not have.
    MissingDefinition,
    /// An exported type of schema.ts that schema.json does not define.
    ExtraDefinition,
    /// Different JSON types.
    Type,
    /// `integer` on one side, `number` on the other.
    IntegerNumber,
    /// `null` allowed on one side only.
    Null,
    /// Different enum values (or an enum against an unrestricted type).
    Enum,
    /// The same enum values, sorted alphabetically in schema.json.
    EnumSorted,
    /// The same enum values in another order.
    EnumOrder,
    /// `"a" | "b" | string` on one side, a plain string on the other.
    OpenEnum,
    Const,
    Format,
    /// `pattern`.
    Pattern,
    /// `minimum`, `maximum`, `minItems`, `maxItems`, `maxLength`.
    Bound,
    /// A property on one side only.
    Property,
    /// Required on one side, optional on the other.
    Required,
    /// An index signature (`additionalProperties`) on one side only.
    IndexSignature,
    /// `additionalProperties: false` in schema.json where schema.ts allows other keys.
    ClosedObject,
    /// A union member on one side only.
    UnionMember,
    /// `never` on one side only.
    Never,
}

impl Kind {
    pub const ALL: [Kind; 19] = [
        Kind::MissingDefinition,
        Kind::ExtraDefinition,
        Kind::Type,
        Kind::IntegerNumber,
        Kind::Null,
        Kind::Enum,
        Kind::EnumSorted,
        Kind::EnumOrder,
        Kind::OpenEnum,
        Kind::Const,
        Kind::Format,
        Kind::Pattern,
        Kind::Bound,
        Kind::Property,
        Kind::Required,
        Kind::IndexSignature,
        Kind::ClosedObject,
        Kind::UnionMember,
        Kind::Never,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::MissingDefinition => "missing-definition",
            Kind::ExtraDefinition => "extra-definition",
            Kind::Type => "type",
            Kind::IntegerNumber => "integer-number",
            Kind::Null => "null",
            Kind::Enum => "enum",
            Kind::EnumSorted => "enum-sorted",
            Kind::EnumOrder => "enum-order",
            Kind::OpenEnum => "open-enum",
            Kind::Const => "const",
            Kind::Format => "format",
            Kind::Pattern => "pattern",
            Kind::Bound => "bound",
            Kind::Property => "property",
            Kind::Required => "required",
            Kind::IndexSignature => "index-signature",
            Kind::ClosedObject => "closed-object",
            Kind::UnionMember => "union-member",
            Kind::Never => "never",
        }
    }

    pub fn parse(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}
