//! A string enum: its variants, wire conversions and serde impls.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ctx::{doc_attrs, Ctx};
use crate::ir::*;
use crate::names::value_variant;

impl<'a> Ctx<'a> {
    pub(super) fn string_enum(&self, item: &Item, e: &StringEnum, lines: Vec<String>) -> TokenStream {
        let name = self.ident(&item.name);
        let name_str = &item.name;
        let docs = doc_attrs(&lines);
        let dep = Self::deprecated(&item.doc);
        let variants: Vec<_> = e.values.iter().map(|v| format_ident!("{}", value_variant(v))).collect();
        let values = &e.values;
        let value_docs = values.iter().map(|v| format!(" `{v:?}`"));
        let other_doc = if e.open {
            " Any other string, which the schema allows."
        } else {
            " A value this schema does not define, kept so that it is written back; validation reports it."
        };
        let expecting = format!("a {name_str} string");
        let open = e.open;
        let write_json = self.enum_write_json(item);
        // The derived `Ord` follows declaration order. Where the order has a meaning
        // (`[[ordered_enum]]`), an unknown value sorts first: an unknown minimum log level then
        // lets every message through instead of silencing them all.
        let ordered = self.config.ordered_enums.iter().any(|o| o.type_name == item.name);
        let other_variant = quote! { #[doc = #other_doc] Other(String), };
        let (other_first, other_last) = if ordered { (other_variant, quote! {}) } else { (quote! {}, other_variant) };
        quote! {
            #docs
            #dep
            #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub enum #name {
                #other_first
                #( #[doc = #value_docs] #variants, )*
                #other_last
            }

            impl #name {
                /// The value as written on the wire.
                pub fn as_str(&self) -> &str {
                    match self {
                        #( Self::#variants => #values, )*
                        Self::Other(s) => s,
                    }
                }

                /// The variant for a wire value (`Other` for one the schema does not name).
                pub fn from_wire(s: &str) -> Self {
                    match s {
                        #( #values => Self::#variants, )*
                        other => Self::Other(other.to_string()),
                    }
                }
            }

            impl std::fmt::Display for #name {
                fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str(self.as_str())
                }
            }

            impl serde::Serialize for #name {
                fn serialize<S: serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                    s.serialize_str(self.as_str())
                }
            }

            #write_json

            #[doc(hidden)]
            impl __f::FastRead for #name {
                #[inline]
                fn read_fast(r: &mut __f::Reader<'_>) -> __f::Fast<Self> {
                    __f::read_enum(r, Self::from_wire)
                }
            }

            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    let k = <__p::Key<'de> as serde::Deserialize>::deserialize(d).map_err(|e: D::Error| <D::Error as serde::de::Error>::custom(format_args!("expected {}: {e}", #expecting)))?;
                    Ok(Self::from_wire(k.as_str()))
                }
            }

            impl __rt::SchemaType for #name {
                fn schema_name(&self) -> &'static str { #name_str }
            }

            #[doc(hidden)]
            impl __p::Shape for #name {
                fn score(v: crate::tree::Node<'_>) -> Option<u32> {
                    v.as_str().map(|s| if !matches!(Self::from_wire(s), Self::Other(_)) { 2 } else if #open { 1 } else { 0 })
                }
            }
        }
    }
}
