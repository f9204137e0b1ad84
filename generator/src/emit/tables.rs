//! A module's tables after its items: the envelopes, the method registry, and the
//! run-time lookup by schema name (`TYPES`, `UNION_MEMBERS`, `ALIASES`, `DYNAMIC`).

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;

use super::ctx::Ctx;
use crate::ir::*;
use crate::names::builder_ident;
use crate::parse::Literal;

impl<'a> Ctx<'a> {
    /// `ClientMessage` / `ServerMessage` as configured, where the module has the types they name.
    /// A side without requests (2026-07-28's server) gets `NoRequests`; a single request or
    /// notification type (an alias of one struct) is made a one-method tagged type here.
    pub(super) fn envelopes(&self) -> TokenStream {
        // A name is the module's own type, or one of the modules it imports from (an extension
        // built on a protocol version takes `RequestId` and the error response from it).
        let find = |name: &str| -> Option<TypeRef> {
            let here = TypeRef { module: self.module.name.clone(), name: name.to_string() };
            if self.space.item(&here).is_some() {
                return Some(here);
            }
            let imported_from = self.config.modules.iter().find(|m| m.name == self.module.name).into_iter().flat_map(|m| m.imports.values());
            imported_from.map(|m| TypeRef { module: m.clone(), name: name.to_string() }).find(|r| self.space.item(r).is_some())
        };
        let has = |name: &str| find(name).is_some();
        let mut out = Vec::new();
        let mut tagged_structs = BTreeSet::new();
        for e in &self.config.envelopes {
            let Some(error) = e.error.iter().find(|n| has(n)) else { continue };
            // The notification union is the module's own: an envelope is not re-made from an import.
            let own = |name: &str| self.module.items.iter().any(|i| i.name == name);
            if !(has(&e.id) && has(&e.result) && own(&e.notification)) {
                continue;
            }
            let mut by_method = |name: &str| -> Option<TokenStream> {
                if !has(name) {
                    return Some(quote! { __rt::NoRequests });
                }
                let ty = Ty::Named(find(name)?);
                if matches!(self.space.union_of(&ty), Some((_, u)) if matches!(u.dispatch, Dispatch::Tag(_))) {
                    return Some(self.rust_ty(&ty));
                }
                let (item, s) = self.space.struct_of(&ty)?;
                let method = s.fields.iter().find_map(|f| match (&f.name[..], &f.literal) {
                    ("method", Some(Literal::Str(m))) => Some(m.clone()),
                    _ => None,
                })?;
                if !self.shared.contains(&item.name) && tagged_structs.insert(item.name.clone()) {
                    let t = self.ident(&item.name);
                    let b = builder_ident(&item.name);
                    let expecting = format!("a {} object", item.name);
                    out.push(quote! {
                        #[doc(hidden)]
                        impl __p::Tagged for #t {
                            const TAG: &'static str = "method";
                            const EXPECTING: &'static str = #expecting;
                            type Builder = #b;
                            fn builder_for(tag: Option<&str>) -> Option<#b> {
                                (tag == Some(#method)).then(#b::default)
                            }
                            fn knows(tag: &str) -> bool {
                                tag == #method
                            }
                        }
                    });
                }
                Some(self.rust_ty(&ty))
            };
            let (Some(req), Some(notif)) = (by_method(&e.request), by_method(&e.notification)) else { continue };
            let name = self.ident(&e.name);
            let [id, res, err] = [&e.id, &e.result, error].map(|n| find(n).map(|r| self.rust_ty(&Ty::Named(r))));
            let (Some(id), Some(res), Some(err)) = (id, res, err) else { continue };
            // A doc link to a type of another module names its path.
            let link = |n: &str| match find(n) {
                Some(r) if r.module != self.module.name => format!("[`{n}`]({})", self.rust_ty(&Ty::Named(r)).to_string().replace(' ', "")),
                _ => format!("[`{n}`]"),
            };
            let req_doc = if has(&e.request) { link(&e.request) } else { "no requests (this version has none)".to_string() };
            let doc = format!(
                " A message the {} sends, as the other side reads it: {req_doc}, {}, a response carrying {}, or {}: the variants of [`Message`](crate::runtime::Message) (`Request`, `Notification`, `Result`, `Error`). Read one line with [`read_message`](crate::rpc::read_message) or, validating requests, [`read_message_checked`](crate::rpc::read_message_checked).",
                e.sender,
                link(&e.notification),
                link(&e.result),
                link(error)
            );
            out.push(quote! {
                #[doc = #doc]
                pub type #name = __rt::Message<#id, #req, #notif, #res, #err>;
            });
        }
        quote! { #(#out)* }
    }

    pub(super) fn registry(&self) -> TokenStream {
        let mut out = Vec::new();
        let mut req_rows = Vec::new();
        for r in &self.module.requests {
            let t = self.ident(&r.type_name);
            let m = &r.method;
            let Some(result) = &r.result else { continue };
            let rt = self.rust_ty(result);
            let result_name = registry_name(result);
            let tn = &r.type_name;
            req_rows.push(quote! { (#m, #tn, #result_name) });
            if self.shared.contains(&r.type_name) {
                continue;
            }
            out.push(quote! {
                impl __rt::RequestMethod for #t {
                    const METHOD: &'static str = #m;
                    type Result = #rt;
                }
            });
        }
        let mut note_rows = Vec::new();
        for n in &self.module.notifications {
            let t = self.ident(&n.type_name);
            let m = &n.method;
            let tn = &n.type_name;
            note_rows.push(quote! { (#m, #tn) });
            if self.shared.contains(&n.type_name) {
                continue;
            }
            out.push(quote! {
                impl __rt::NotificationMethod for #t {
                    const METHOD: &'static str = #m;
                }
            });
        }
        quote! {
            #(#out)*

            /// Every request of this schema as `(method, request type, result type)`.
            pub const REQUESTS: &[(&str, &str, &str)] = &[#(#req_rows),*];

            /// Every notification of this schema as `(method, notification type)`.
            pub const NOTIFICATIONS: &[(&str, &str)] = &[#(#note_rows),*];
        }
    }

    /// Typed reading by schema name, for tools that choose the type at run time.
    pub(super) fn dynamic(&self) -> TokenStream {
        let mut names = Vec::new();
        let mut unions = Vec::new();
        let mut aliases = Vec::new();
        let mut table: Vec<(String, TokenStream)> = Vec::new();
        for item in &self.module.items {
            if matches!(item.kind, ItemKind::Const(_)) {
                continue;
            }
            let n = &item.name;
            let t = self.ident(n);
            let kind = match &item.kind {
                ItemKind::Struct(_) => "struct",
                ItemKind::Union(_) => "union",
                ItemKind::StringEnum(_) => "enum",
                _ => "alias",
            };
            names.push(quote! { (#n, #kind) });
            table.push((n.clone(), quote! { __rt::dynamic::DynType::of::<#t>(#n) }));
            match &item.kind {
                ItemKind::Union(_) => {
                    let mut leaves = BTreeSet::new();
                    self.leaves(&Ty::Named(TypeRef { module: self.module.name.clone(), name: n.clone() }), &mut leaves, 0);
                    let leaves = leaves.into_iter();
                    unions.push(quote! { (#n, &[#(#leaves),*]) });
                }
                ItemKind::Alias(target) => {
                    let target = registry_name(target);
                    aliases.push(quote! { (#n, #target) });
                }
                _ => {}
            }
        }
        if self.module.requests.iter().any(|r| r.result == Some(Ty::Object)) {
            table.push(("object".to_string(), quote! { __rt::dynamic::DynType::of::<__rt::JsonObject>("object") }));
        }
        table.sort_by(|a, b| a.0.cmp(&b.0));
        let entries = table.iter().map(|(_, t)| t);
        quote! {
            /// Every type in this module: its schema name and whether it is a `struct`, `union`, `enum` or `alias`.
            pub const TYPES: &[(&str, &str)] = &[#(#names),*];

            /// Every union with the schema names of the types it can hold, nested unions flattened.
            pub const UNION_MEMBERS: &[(&str, &[&str])] = &[#(#unions),*];

            /// Every alias with what it names: a schema type, or `string`, `integer`, `number`, `boolean`,
            /// `object`, `array`, `value` (any JSON).
            pub const ALIASES: &[(&str, &str)] = &[#(#aliases),*];

            /// Every type, by schema name (sorted), with its typed reading, writing and validation,
            /// for tools that choose the type at run time. Plain JSON objects are `"object"`.
            #[cfg(feature = "dynamic")]
            pub static DYNAMIC: &[__rt::dynamic::DynType] = &[#(#entries),*];

            /// The run-time entry of the type named `type_name`.
            #[cfg(feature = "dynamic")]
            pub fn dynamic(type_name: &str) -> Option<&'static __rt::dynamic::DynType> {
                __rt::dynamic::find(DYNAMIC, type_name)
            }

            /// Reads `json` as the type named `type_name` and writes it back: the re-serialized value and
            /// the schema name of what was read (for a union, the variant it chose). `None` for an unknown name.
            #[cfg(feature = "dynamic")]
            pub fn roundtrip_json(type_name: &str, json: &str) -> Option<::core::result::Result<(serde_json::Value, &'static str), serde_json::Error>> {
                dynamic(type_name).map(|d| (d.roundtrip_json)(json))
            }

            /// Like [`roundtrip_json`], from an already parsed value.
            #[cfg(feature = "dynamic")]
            pub fn roundtrip_value(type_name: &str, value: &serde_json::Value) -> Option<::core::result::Result<(serde_json::Value, &'static str), serde_json::Error>> {
                dynamic(type_name).map(|d| (d.roundtrip_value)(value))
            }

            /// Reads `value` as the type named `type_name` without writing it back: the schema name of what was read.
            #[cfg(feature = "dynamic")]
            pub fn read_value(type_name: &str, value: &serde_json::Value) -> Option<::core::result::Result<&'static str, serde_json::Error>> {
                dynamic(type_name).map(|d| (d.read_value)(value))
            }

            /// Validates `value` as the type named `type_name`; `None` for a name this module does not have.
            #[cfg(feature = "dynamic")]
            pub fn validate_json_as(type_name: &str, value: &serde_json::Value, options: &__v::Options) -> Option<__v::Report> {
                dynamic(type_name).map(|d| (d.validate)(value, options))
            }
        }
    }

    pub(super) fn leaves(&self, ty: &Ty, out: &mut BTreeSet<String>, depth: usize) {
        if depth > 16 {
            return;
        }
        if let Some((_, u)) = self.space.union_of(ty) {
            for v in &u.variants {
                self.leaves(&v.ty, out, depth + 1);
            }
        } else if let Some((item, _)) = self.space.struct_of(ty) {
            out.insert(item.name.clone());
        }
    }
}

/// How the registry tables name a type: its schema name, or the JSON kind of an unnamed one.
fn registry_name(ty: &Ty) -> String {
    match ty {
        Ty::Named(r) => r.name.clone(),
        Ty::String => "string".into(),
        Ty::Integer => "integer".into(),
        Ty::Number => "number".into(),
        Ty::Boolean => "boolean".into(),
        Ty::Null => "null".into(),
        Ty::Object | Ty::Map(_) => "object".into(),
        Ty::Array(_) => "array".into(),
        Ty::Value | Ty::Binding(_) | Ty::Nullable(_) => "value".into(),
    }
}
