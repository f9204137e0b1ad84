//! The JSON-only writing path (`crate::write::WriteJson`) beside each `Serialize` impl: the
//! same bytes serde_json writes, with object keys as precomputed literals and `Value` fields
//! walked directly instead of through serde's generic `Serialize` impls.
//!
//! The methods are `#[inline]`, so a build compiles them only where something writes the
//! type: the library's own build pays for type checking, not for code generation.

use proc_macro2::{Literal as TokenLiteral, TokenStream};
use quote::{format_ident, quote};

use super::ctx::{lit_value, number, Ctx};
use crate::ir::*;
use crate::parse::Literal;
use crate::resolve::layout::field_rust_name;

impl<'a> Ctx<'a> {
    /// Each field as `,"key":value` (the leading comma of the first becomes the `{`), in the
    /// order the `Serialize` impl writes them, then the extra keys.
    pub(super) fn struct_write_json(&self, item: &Item, s: &Struct) -> TokenStream {
        let name = self.ident(&item.name);
        let mut writes = Vec::new();
        // Text always written next (keys of required fields, whole literal entries), written
        // with one copy.
        let mut pending = String::new();
        let flush = |pending: &mut String, writes: &mut Vec<TokenStream>| {
            if !pending.is_empty() {
                let bytes = TokenLiteral::byte_string(std::mem::take(pending).as_bytes());
                writes.push(quote! { out.extend_from_slice(#bytes); });
            }
        };
        for f in s.fields.iter().filter(|f| !f.never) {
            let ident = format_ident!("{}", field_rust_name(self.config, &item.name, &f.name));
            match (&f.literal, f.optional) {
                (Some(l), false) => match literal_json(l) {
                    Some(json) => pending.push_str(&entry(&f.name, &json)),
                    None => {
                        pending.push_str(&entry(&f.name, ""));
                        flush(&mut pending, &mut writes);
                        let value = lit_value(l);
                        writes.push(quote! { crate::write::WriteJson::write_json(#value, out); });
                    }
                },
                (Some(l), true) => {
                    flush(&mut pending, &mut writes);
                    let key = TokenLiteral::byte_string(entry(&f.name, "").as_bytes());
                    let write = match literal_json(l) {
                        Some(json) => {
                            let bytes = TokenLiteral::byte_string(entry(&f.name, &json).as_bytes());
                            quote! { out.extend_from_slice(#bytes); }
                        }
                        None => {
                            let value = lit_value(l);
                            quote! { out.extend_from_slice(#key); crate::write::WriteJson::write_json(#value, out); }
                        }
                    };
                    writes.push(quote! { if self.#ident { #write } });
                }
                (None, false) => {
                    pending.push_str(&entry(&f.name, ""));
                    flush(&mut pending, &mut writes);
                    writes.push(quote! { crate::write::WriteJson::write_json(&self.#ident, out); });
                }
                (None, true) => {
                    flush(&mut pending, &mut writes);
                    let key = TokenLiteral::byte_string(entry(&f.name, "").as_bytes());
                    writes.push(quote! {
                        if let Some(v) = &self.#ident {
                            out.extend_from_slice(#key);
                            crate::write::WriteJson::write_json(v, out);
                        }
                    });
                }
            }
        }
        flush(&mut pending, &mut writes);
        quote! {
            impl crate::write::WriteJson for #name {
                #[inline]
                fn write_json(&self, out: &mut Vec<u8>) {
                    let start = out.len();
                    #(#writes)*
                    crate::write::write_entries(out, &self.extra);
                    crate::write::end_object(out, start);
                }
            }
        }
    }

    /// A union writes its member, as its `Serialize` impl does.
    pub(super) fn union_write_json(&self, item: &Item, u: &Union, has_unknown: bool) -> TokenStream {
        let name = self.ident(&item.name);
        let vnames: Vec<_> = u.variants.iter().map(|v| format_ident!("{}", v.name)).collect();
        let unknown = if has_unknown { quote! { Self::Unknown(v) => crate::write::WriteJson::write_json(v, out), } } else { quote! {} };
        quote! {
            impl crate::write::WriteJson for #name {
                #[inline]
                fn write_json(&self, out: &mut Vec<u8>) {
                    match self {
                        #( Self::#vnames(v) => crate::write::WriteJson::write_json(v, out), )*
                        #unknown
                    }
                }
            }
        }
    }

    /// A string enum writes its wire value.
    pub(super) fn enum_write_json(&self, item: &Item) -> TokenStream {
        let name = self.ident(&item.name);
        quote! {
            impl crate::write::WriteJson for #name {
                #[inline]
                fn write_json(&self, out: &mut Vec<u8>) {
                    crate::write::WriteJson::write_json(self.as_str(), out)
                }
            }
        }
    }
}

/// `,"key":` followed by `value` (JSON text).
fn entry(key: &str, value: &str) -> String {
    let key = serde_json::to_string(key).expect("a string always serializes");
    format!(",{key}:{value}")
}

/// The JSON serde_json writes for the value a literal field holds (`lit_value`), when it is
/// the same in every serde_json release: strings, integers and booleans. `None` for a float,
/// whose spelling (exponent form) is the float printer's and is written at run time.
fn literal_json(l: &Literal) -> Option<String> {
    let json = match l {
        Literal::Str(s) => serde_json::to_string(s),
        Literal::Num(n) => match number(n) {
            Ok(i) => serde_json::to_string(&i),
            Err(_) => return None,
        },
        Literal::Bool(b) => serde_json::to_string(b),
    };
    Some(json.expect("a literal always serializes"))
}
