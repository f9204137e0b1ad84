//! A union: the enum, and how it is read (by tag, by JSON kind, or by keys; the keyed
//! reader itself is in `keyed`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ctx::{doc_attrs, Ctx};
use crate::ir::*;
use crate::names::builder_ident;
use crate::parse::Literal;
use crate::resolve::layout::field_rust_name;

impl<'a> Ctx<'a> {
    pub(super) fn union(&self, item: &Item, u: &Union, mut lines: Vec<String>) -> TokenStream {
        let name = self.ident(&item.name);
        let dep = Self::deprecated(&item.doc);
        let vnames: Vec<_> = u.variants.iter().map(|v| format_ident!("{}", v.name)).collect();
        let vtys: Vec<_> = u.variants.iter().map(|v| self.member_ty(&item.name, &v.ty)).collect();
        let has_unknown = matches!(&u.dispatch, Dispatch::Tag(t) if t.on_other.is_none());
        let how = match &u.dispatch {
            Dispatch::Kind => "Read by the JSON kind of the value.".to_string(),
            Dispatch::Tag(t) => {
                let mut s = format!("Read by `{}`, before any other field.", t.field);
                if let Some(i) = t.on_absent {
                    s.push_str(&format!(" Without `{}` it is [`{}`](Self::{}).", t.field, u.variants[i].name, u.variants[i].name));
                }
                if has_unknown {
                    s.push_str(&format!(" A `{}` this schema does not define is kept in [`Unknown`](Self::Unknown).", t.field));
                }
                s
            }
            Dispatch::Shape if self.keyed(item).is_some() => "Read by the keys present, without buffering a tree: a key only one variant names decides at once (unless a variant takes any object); otherwise the variants whose required keys are all there are tried, those that name most of the keys first, and the first that reads the object wins.".to_string(),
            Dispatch::Shape => "Read by the keys present: the variant whose required keys are all there and that knows most of the keys wins.".to_string(),
        };
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push(how);
        lines.extend(self.union_from_doc(item, u));
        let docs = doc_attrs(&lines);
        let variant_docs: Vec<String> = (0..u.variants.len()).map(|i| format!(" {}", self.variant_doc(u, i))).collect();
        let unknown_variant = if has_unknown {
            let Dispatch::Tag(t) = &u.dispatch else { unreachable!() };
            let d = format!(" An object whose `{}` this schema does not define, kept as received.", t.field);
            quote! { #[doc = #d] Unknown(__rt::JsonObject), }
        } else {
            quote! {}
        };
        let unknown_ser = if has_unknown { quote! { Self::Unknown(v) => serde::Serialize::serialize(v, s), } } else { quote! {} };
        let unknown_name = if has_unknown { quote! { Self::Unknown(_) => "Unknown", } } else { quote! {} };
        let score_keys = self.union_score_keys(item, u);
        let write_json = self.union_write_json(item, u, has_unknown);
        let de = match &u.dispatch {
            Dispatch::Tag(t) => self.tagged_impl(item, u, t, has_unknown),
            Dispatch::Kind => self.kind_impl(item, u),
            Dispatch::Shape => self.shape_impl(item, u),
        };
        let me = Ty::Named(TypeRef { module: self.module.name.clone(), name: item.name.clone() });
        let eq_hash = if self.hashable(&me, 0) { quote! { Eq, Hash, } } else { quote! {} };
        quote! {
            #docs
            #dep
            #[derive(Debug, Clone, PartialEq, #eq_hash)]
            pub enum #name {
                #( #[doc = #variant_docs] #vnames(#vtys), )*
                #unknown_variant
            }

            impl serde::Serialize for #name {
                fn serialize<S: serde::Serializer>(&self, s: S) -> ::core::result::Result<S::Ok, S::Error> {
                    match self {
                        #( Self::#vnames(v) => serde::Serialize::serialize(v, s), )*
                        #unknown_ser
                    }
                }
            }

            #write_json

            impl __rt::SchemaType for #name {
                fn schema_name(&self) -> &'static str {
                    match self {
                        #( Self::#vnames(v) => __rt::SchemaType::schema_name(v), )*
                        #unknown_name
                    }
                }
            }

            #[doc(hidden)]
            impl __p::Shape for #name {
                fn score(v: crate::tree::Node<'_>) -> Option<u32> {
                    [#( <#vtys as __p::Shape>::score(v) ),*].into_iter().flatten().max()
                }
                fn fits(v: crate::tree::Node<'_>) -> Option<u32> {
                    [#( <#vtys as __p::Shape>::fits(v) ),*].into_iter().flatten().max()
                }
                #score_keys
            }

            #de
        }
    }

    pub(super) fn tagged_impl(&self, item: &Item, u: &Union, t: &Tag, has_unknown: bool) -> TokenStream {
        let name = self.ident(&item.name);
        let builder = builder_ident(&item.name);
        let field = &t.field;
        let expecting = format!("a {} object, chosen by `{}`", item.name, t.field);
        let vnames: Vec<_> = u.variants.iter().map(|v| format_ident!("{}", v.name)).collect();
        let vbuilders: Vec<_> = u.variants.iter().map(|v| self.builder_path(&v.ty)).collect();
        let is_union: Vec<bool> = u.variants.iter().map(|v| self.space.union_of(&v.ty).is_some()).collect();
        let finishes = self.member_finishes(item, u);
        let make = |i: usize, tag: TokenStream| -> TokenStream {
            let v = &vnames[i];
            let b = &vbuilders[i];
            if is_union[i] {
                let inner = self.rust_ty(&u.variants[i].ty);
                quote! { #builder::#v(<#inner as __p::Tagged>::builder_for(#tag)?) }
            } else {
                quote! { #builder::#v(#b::default()) }
            }
        };
        let cases = t.cases.iter().map(|(value, i)| {
            let mk = make(*i, quote! { tag });
            quote! { Some(#value) => #mk, }
        });
        let other = match t.on_other {
            Some(i) => {
                let mk = make(i, quote! { tag });
                quote! { Some(_) => #mk, }
            }
            None => quote! { Some(_) => #builder::Unknown(__rt::JsonObject::new()), },
        };
        let absent = match t.on_absent {
            Some(i) => {
                let mk = make(i, quote! { None });
                quote! { None => #mk, }
            }
            None => quote! { None => return None, },
        };
        let knows = if t.on_other.is_some() {
            quote! { let _ = tag; true }
        } else {
            let values = t.cases.iter().map(|(v, _)| v);
            quote! { matches!(tag, #(#values)|*) }
        };
        let tag_method = self.tag_method(item, u, t, &is_union, has_unknown);
        let unknown_builder = if has_unknown { quote! { Unknown(__rt::JsonObject), } } else { quote! {} };
        let unknown_field = if has_unknown { quote! { Self::Unknown(m) => __p::unknown(m, key, src), } } else { quote! {} };
        let unknown_finish = if has_unknown { quote! { Self::Unknown(m) => #name::Unknown(m), } } else { quote! {} };
        let slots = member_slots(&builder, &vnames, has_unknown);
        let fast_read = union_fast_read(&name, quote! { __f::read_tagged });
        quote! {
            #slots

            #fast_read

            #[doc(hidden)]
            pub enum #builder {
                #( #vnames(#vbuilders), )*
                #unknown_builder
            }

            #[doc(hidden)]
            impl __p::Builder for #builder {
                type Output = #name;
                fn field<'de, S: __p::FieldSource<'de>>(&mut self, key: __p::Key<'de>, src: S) -> ::core::result::Result<(), S::Error> {
                    match self {
                        #( Self::#vnames(b) => __p::Builder::field(b, key, src), )*
                        #unknown_field
                    }
                }
                fn finish<E: serde::de::Error>(self) -> ::core::result::Result<#name, E> {
                    Ok(match self {
                        #( Self::#vnames(b) => #name::#vnames(#finishes), )*
                        #unknown_finish
                    })
                }
            }

            #tag_method

            #[doc(hidden)]
            impl __p::Tagged for #name {
                const TAG: &'static str = #field;
                const EXPECTING: &'static str = #expecting;
                type Builder = #builder;
                fn builder_for(tag: Option<&str>) -> Option<#builder> {
                    Some(match tag {
                        #(#cases)*
                        #other
                        #absent
                    })
                }
                fn knows(tag: &str) -> bool {
                    #knows
                }
            }

            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    __p::deserialize_tagged::<D, #name>(d)
                }
            }
        }
    }

    /// `tag()`: the tag value of what a tagged union holds.
    fn tag_method(&self, item: &Item, u: &Union, t: &Tag, is_union: &[bool], has_unknown: bool) -> TokenStream {
        let name = self.ident(&item.name);
        let field = &t.field;
        let vnames: Vec<_> = u.variants.iter().map(|v| format_ident!("{}", v.name)).collect();
        let tag_arms = u.variants.iter().enumerate().map(|(i, v)| {
            let vn = &vnames[i];
            let values: Vec<&str> = t.cases.iter().filter(|(_, j)| *j == i).map(|(v, _)| v.as_str()).collect();
            let _ = v;
            if is_union[i] {
                quote! { Self::#vn(inner) => inner.tag(), }
            } else if values.len() == 1 && t.on_other != Some(i) && t.on_absent != Some(i) {
                let value = values[0];
                quote! { Self::#vn(_) => Some(#value), }
            } else {
                // An open or default member: the value is the one it holds.
                let access = self.tag_access(&item.name, &u.variants[i].ty, field);
                quote! { Self::#vn(v) => #access, }
            }
        });
        let unknown_tag = if has_unknown { quote! { Self::Unknown(m) => m.get(#field).and_then(|t| t.as_str()), } } else { quote! {} };
        let tag_doc = format!(" The `{}` of the value held, when it is fixed by the variant or was read into `Unknown`.", t.field);
        quote! {
        impl #name {
            #[doc = #tag_doc]
            pub fn tag(&self) -> Option<&str> {
                match self {
                    #(#tag_arms)*
                    #unknown_tag
                }
            }
        }
        }
    }

    /// How to read a tag field's value out of a struct variant `v`, as `Option<&str>`.
    pub(super) fn tag_access(&self, owner: &str, ty: &Ty, field: &str) -> TokenStream {
        let Some((item, st)) = self.space.struct_of(ty) else { return quote! { None } };
        let Some(f) = st.fields.iter().find(|f| f.name == field) else { return quote! { None } };
        let ident = format_ident!("{}", field_rust_name(self.config, &item.name, &f.name));
        let _ = owner;
        match (&f.literal, self.space.deref(&f.ty), f.optional) {
            (Some(Literal::Str(value)), _, true) => quote! { v.#ident.then_some(#value) },
            (Some(Literal::Str(value)), _, false) => quote! { Some(#value) },
            (None, Ty::String, true) => quote! { v.#ident.as_deref() },
            (None, Ty::String, false) => quote! { Some(v.#ident.as_str()) },
            (None, Ty::Named(_), true) => quote! { v.#ident.as_ref().map(|e| e.as_str()) },
            (None, Ty::Named(_), false) => quote! { Some(v.#ident.as_str()) },
            _ => quote! { None },
        }
    }

    /// The builder type that reads a variant: the struct's, or the nested tagged union's.
    pub(super) fn builder_path(&self, ty: &Ty) -> TokenStream {
        match self.space.deref(ty) {
            Ty::Named(r) => self.type_path(&r, true),
            other => panic!("tagged union variant is not a named type: {other:?}"),
        }
    }

    pub(super) fn kind_impl(&self, item: &Item, u: &Union) -> TokenStream {
        let name = self.ident(&item.name);
        let mut methods = Vec::new();
        let expecting = format!("{} ({})", item.name, u.variants.iter().map(|v| format!("{:?}", self.space.kind_of(&v.ty)).to_lowercase()).collect::<Vec<_>>().join(" or "));
        let find = |k: JsonKind| u.variants.iter().position(|v| self.space.kind_of(&v.ty) == k);
        let fast_read = self.kind_fast_read(item, u);
        let ok = |i: usize, value: TokenStream| -> TokenStream {
            let v = format_ident!("{}", u.variants[i].name);
            let ty = self.member_ty(&item.name, &u.variants[i].ty);
            quote! { Ok(#name::#v(<#ty as serde::Deserialize<'de>>::deserialize(#value)?)) }
        };
        if let Some(i) = find(JsonKind::String) {
            let a = ok(i, quote! { serde::de::value::StrDeserializer::<E>::new(v) });
            let b = ok(i, quote! { serde::de::value::StringDeserializer::<E>::new(v) });
            methods.push(quote! {
                fn visit_str<E: serde::de::Error>(self, v: &str) -> ::core::result::Result<#name, E> { #a }
                fn visit_string<E: serde::de::Error>(self, v: String) -> ::core::result::Result<#name, E> { #b }
            });
        }
        let int = find(JsonKind::Integer);
        let num = find(JsonKind::Number);
        if let Some(i) = int.or(num) {
            let a = ok(i, quote! { serde::de::value::I64Deserializer::<E>::new(v) });
            let b = ok(i, quote! { serde::de::value::U64Deserializer::<E>::new(v) });
            methods.push(quote! {
                fn visit_i64<E: serde::de::Error>(self, v: i64) -> ::core::result::Result<#name, E> { #a }
                fn visit_u64<E: serde::de::Error>(self, v: u64) -> ::core::result::Result<#name, E> { #b }
            });
        }
        if let Some(i) = num {
            let a = ok(i, quote! { serde::de::value::F64Deserializer::<E>::new(v) });
            methods.push(quote! {
                fn visit_f64<E: serde::de::Error>(self, v: f64) -> ::core::result::Result<#name, E> { #a }
            });
        }
        if let Some(i) = find(JsonKind::Boolean) {
            let a = ok(i, quote! { serde::de::value::BoolDeserializer::<E>::new(v) });
            methods.push(quote! {
                fn visit_bool<E: serde::de::Error>(self, v: bool) -> ::core::result::Result<#name, E> { #a }
            });
        }
        if let Some(i) = find(JsonKind::Null) {
            let a = ok(i, quote! { serde::de::value::UnitDeserializer::<E>::new() });
            methods.push(quote! {
                fn visit_unit<E: serde::de::Error>(self) -> ::core::result::Result<#name, E> { #a }
            });
        }
        if let Some(i) = find(JsonKind::Array) {
            let a = ok(i, quote! { serde::de::value::SeqAccessDeserializer::new(v) });
            methods.push(quote! {
                fn visit_seq<A: serde::de::SeqAccess<'de>>(self, v: A) -> ::core::result::Result<#name, A::Error> { #a }
            });
        }
        if let Some(i) = find(JsonKind::Object) {
            let a = ok(i, quote! { __p::MapDe(v) });
            methods.push(quote! {
                fn visit_map<A: serde::de::MapAccess<'de>>(self, v: A) -> ::core::result::Result<#name, A::Error> { #a }
            });
        }
        quote! {
            #fast_read

            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    struct V;
                    impl<'de> serde::de::Visitor<'de> for V {
                        type Value = #name;
                        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                            f.write_str(#expecting)
                        }
                        #(#methods)*
                    }
                    d.deserialize_any(V)
                }
            }
        }
    }

    /// A union decided by the JSON kind, read by the crate's reader: the same member for the
    /// same kind as the serde visitor (integers to the integer member, or else the number one).
    fn kind_fast_read(&self, item: &Item, u: &Union) -> TokenStream {
        let name = self.ident(&item.name);
        let find = |k: JsonKind| u.variants.iter().position(|v| self.space.kind_of(&v.ty) == k);
        // `from_number`: the member of a number already read, else the member's own reader.
        let member = |i: usize, from_number: bool| -> TokenStream {
            let v = format_ident!("{}", u.variants[i].name);
            let ty = self.member_ty(&item.name, &u.variants[i].ty);
            if from_number {
                quote! { Ok(#name::#v(<#ty as __f::FromNumber>::from_number(n)?)) }
            } else {
                quote! { Ok(#name::#v(<#ty as __f::FastRead>::read_fast(r)?)) }
            }
        };
        let fast = |i: usize| member(i, false);
        let mut arms = Vec::new();
        for (kind, bytes) in [
            (JsonKind::String, quote! { b'"' }),
            (JsonKind::Boolean, quote! { b't' | b'f' }),
            (JsonKind::Null, quote! { b'n' }),
            (JsonKind::Array, quote! { b'[' }),
            (JsonKind::Object, quote! { b'{' }),
        ] {
            if let Some(i) = find(kind) {
                let read = fast(i);
                arms.push(quote! { Some(#bytes) => #read, });
            }
        }
        let (int, num) = (find(JsonKind::Integer), find(JsonKind::Number));
        if let Some(i) = int.or(num) {
            let whole = member(i, true);
            let float = match num {
                Some(j) => member(j, true),
                None => quote! { __f::refuse() },
            };
            arms.push(quote! {
                Some(b'-' | b'0'..=b'9') => {
                    let n = __f::number(r)?;
                    if n.is_float() { #float } else { #whole }
                }
            });
        }
        quote! {
            #[doc(hidden)]
            impl __f::FastRead for #name {
                #[inline]
                fn read_fast(r: &mut __f::Reader<'_>) -> __f::Fast<Self> {
                    match __f::peek(r) {
                        #(#arms)*
                        _ => __f::refuse(),
                    }
                }
            }
        }
    }

    pub(super) fn shape_impl(&self, item: &Item, u: &Union) -> TokenStream {
        let name = self.ident(&item.name);
        let vnames: Vec<_> = u.variants.iter().map(|v| format_ident!("{}", v.name)).collect();
        let vtys: Vec<_> = u.variants.iter().map(|v| self.member_ty(&item.name, &v.ty)).collect();
        let idx: Vec<usize> = (0..u.variants.len()).collect();
        let expected = u.variants.iter().map(|v| self.shape_hint(&v.ty, &v.name)).collect::<Vec<_>>().join("; ");
        let msg = format!("no variant of {} matches this value; expected {expected}", item.name);
        if let Some(keyed) = self.keyed(item) {
            return self.keyed_impl(item, u, keyed, &msg);
        }
        quote! {
            #[doc(hidden)]
            impl __f::FastRead for #name {
                #[inline]
                fn read_fast(r: &mut __f::Reader<'_>) -> __f::Fast<Self> {
                    // Scored on the value's tree, as validation scores it; the member read from that tree.
                    let doc = __f::next_tree(r)?;
                    let scores = [#( <#vtys as __p::Shape>::score(doc.root()) ),*];
                    match __p::best(&scores) {
                        #( Some(#idx) => __f::from_node(doc.root()).map(#name::#vnames), )*
                        _ => __f::refuse(),
                    }
                }
            }

            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    let v = <serde_json::Value as serde::Deserialize>::deserialize(d)?;
                    let scores = __p::scores(&v, &[#( <#vtys as __p::Shape>::score as __p::Fit ),*]);
                    match __p::best(&scores) {
                        #( Some(#idx) => __p::from_value(v).map(#name::#vnames), )*
                        _ => Err(<D::Error as serde::de::Error>::custom(#msg)),
                    }
                }
            }
        }
    }

    /// `score_keys` for a union that is a member of a keyed union: its best member's.
    pub(super) fn union_score_keys(&self, item: &Item, u: &Union) -> TokenStream {
        if !self.space.layout.scored.contains(&self.here(&item.name)) {
            return quote! {};
        }
        let vtys: Vec<TokenStream> = u.variants.iter().map(|v| self.member_ty(&item.name, &v.ty)).collect();
        quote! {
            fn score_keys<K: __p::KeySet + ?Sized>(o: &K) -> Option<u32> {
                [#( <#vtys as __p::Shape>::score_keys(o) ),*].into_iter().flatten().max()
            }
        }
    }
}

/// A union's `FastRead`: its builder's slots are read by `reader` (`read_tagged`, `read_keyed`).
pub(super) fn union_fast_read(name: &proc_macro2::Ident, reader: TokenStream) -> TokenStream {
    quote! {
        #[doc(hidden)]
        impl __f::FastRead for #name {
            #[inline]
            fn read_fast(r: &mut __f::Reader<'_>) -> __f::Fast<Self> {
                #reader::<Self>(r)
            }
        }
    }
}

/// A union's builder as the crate's reader sees it: its member's table and slots.
pub(super) fn member_slots(builder: &proc_macro2::Ident, vnames: &[proc_macro2::Ident], has_unknown: bool) -> TokenStream {
    let (known, slot, unknown, extra) = if has_unknown {
        (
            quote! { Self::Unknown(_) => &[], },
            quote! { Self::Unknown(_) => __f::Slot::Gone, },
            quote! { Self::Unknown(m) => __f::unknown(m, key, r), },
            quote! { Self::Unknown(m) => Some(m), },
        )
    } else {
        (quote! {}, quote! {}, quote! {}, quote! {})
    };
    quote! {
        #[doc(hidden)]
        impl __f::Slots for #builder {
            #[inline]
            fn known(&self) -> &'static [__f::Known] {
                match self {
                    #( Self::#vnames(b) => __f::Slots::known(b), )*
                    #known
                }
            }
            #[inline]
            fn slot(&mut self, i: usize) -> __f::Slot<'_> {
                match self {
                    #( Self::#vnames(b) => __f::Slots::slot(b, i), )*
                    #slot
                }
            }
            #[inline]
            fn unknown<'de>(&mut self, key: __p::Key<'de>, r: &mut __f::Reader<'de>) -> __f::Fast<()> {
                match self {
                    #( Self::#vnames(b) => __f::Slots::unknown(b, key, r), )*
                    #unknown
                }
            }
            #[inline]
            fn extra(&mut self) -> Option<&mut __rt::JsonObject> {
                match self {
                    #( Self::#vnames(b) => __f::Slots::extra(b), )*
                    #extra
                }
            }
        }
    }
}
