//! Unions decided by the keys present, read without a `serde_json::Value` buffer.
//!
//! Such a union gets a builder over its members' builders (see `__p::Keyed`). What
//! decides a member (`resolve::layout` put it in [`KeyedUnion`]) is written out here,
//! and so are the key-only scores of the types that are members of such a union.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ctx::{lit_tokens, Ctx};
use crate::ir::*;
use crate::names::builder_ident;
use crate::resolve::layout::field_rust_name;

/// The value a field must hold for its struct to rank at all: its literal, or none at all
/// for a `never` field. A closed enum is not one of these: a value it does not name may be
/// a newer version's, which reads as `Other`; see [`claimed_elsewhere`].
pub(super) fn rank_literal(f: &Field) -> Option<TokenStream> {
    if f.never {
        // No value is allowed: the key's presence rules the member out.
        return Some(quote! { __p::Lit::OneOf(&[]) });
    }
    f.literal.as_ref().map(lit_tokens)
}

/// The conditions on `o` under which a member stays a candidate at all, on top of its key
/// score (see [`MemberGuard`]); `None` when nothing rules the member out that way.
pub(super) fn member_guard(guard: &MemberGuard) -> Option<TokenStream> {
    let mut conds = Vec::new();
    if !guard.claimed.is_empty() {
        let entries = guard.claimed.iter().map(|(k, values)| quote! { (#k, &[#(#values),*]) });
        conds.push(quote! { __p::unclaimed(o, &[#(#entries),*]) });
    }
    if !guard.rules_out.is_empty() {
        let keys = &guard.rules_out;
        conds.push(quote! { __p::names_none(o, &[#(#keys),*]) });
    }
    (!conds.is_empty()).then(|| quote! { #(#conds)&&* })
}

/// A keyed union's members as tokens, in order: variant names, builders, types.
struct MemberTokens {
    names: Vec<proc_macro2::Ident>,
    builders: Vec<TokenStream>,
    tys: Vec<TokenStream>,
}

impl<'a> Ctx<'a> {
    /// The builder, `Keyed` impl and `Deserialize` of a keyed union.
    pub(super) fn keyed_impl(&self, item: &Item, u: &Union, keyed: &KeyedUnion, no_match: &str) -> TokenStream {
        let name = format_ident!("{}", item.name);
        let builder = builder_ident(&item.name);
        let members = &keyed.members;
        let tokens = MemberTokens {
            names: u.variants.iter().map(|v| format_ident!("{}", v.name)).collect(),
            builders: members.iter().map(|m| self.type_path(&m.item, true)).collect(),
            tys: u.variants.iter().map(|v| self.rust_ty(&v.ty)).collect(),
        };
        let (vnames, vbuilders, inner_tys) = (&tokens.names[..], &tokens.builders[..], &tokens.tys[..]);
        let finishes = self.member_finishes(item, u);
        let deciding = keyed.deciding.iter().map(|(key, i)| {
            let i = *i;
            let v = &vnames[i];
            let make = match members[i].kind {
                MemberKind::Keyed => {
                    let t = &inner_tys[i];
                    quote! { <#t as __p::Keyed>::builder_for_key(key)? }
                }
                _ => {
                    let b = &vbuilders[i];
                    quote! { #b::default() }
                }
            };
            quote! { #key => Some(#builder::#v(#make)), }
        });
        let guess_for_key = self.guess_for_key(&builder, keyed, vnames, vbuilders);
        let guards: Vec<Option<TokenStream>> = keyed.guards.iter().map(member_guard).collect();
        let scores = u.variants.iter().enumerate().map(|(i, v)| {
            let t = self.member_ty(&item.name, &v.ty);
            match &guards[i] {
                Some(guard) => quote! { #i => if #guard { <#t as __p::Shape>::score_keys(o) } else { None }, },
                None => quote! { #i => <#t as __p::Shape>::score_keys(o), },
            }
        });
        let reads = self.member_arms(item, u, keyed, &tokens, |kind, t, b, wrap| match kind {
            MemberKind::Struct => quote! { Some(o.feed(#b::default()).map(#wrap)) },
            MemberKind::Tagged => quote! { __p::tagged_builder::<#t>(o).map(|b| o.feed(b).map(#wrap)) },
            MemberKind::Keyed => quote! { Some(<#t as __p::Keyed>::read(o).map(#wrap)) },
        });
        let named = &keyed.named;
        let closest = (!named.is_empty()).then(|| {
            let entries = named.iter().map(|(i, keys)| quote! { (#i, &[#(#keys),*]) });
            quote! {
                fn closest<K: __p::KeySet + ?Sized>(o: &K) -> Option<usize> {
                    __p::most_named(o, &[#(#entries),*])
                }
            }
        });
        // `read_member` is `#[inline]`: not generic, it would otherwise be compiled into the crate for
        // every keyed union, where a read of the union compiles it only where it is used.
        let fast = self.keyed_fast_read(item, u, keyed, &tokens);
        let n = u.variants.len();
        let expecting = format!("a {} object", item.name);
        quote! {
            #[doc(hidden)]
            /// Reads one member of the union once the keys have decided it; see [`__p::Keyed`].
            pub enum #builder {
                #( #vnames(#vbuilders), )*
            }

            #[doc(hidden)]
            impl __p::Builder for #builder {
                type Output = #name;
                fn field<'de, S: __p::FieldSource<'de>>(&mut self, key: __p::Key<'de>, src: S) -> ::core::result::Result<(), S::Error> {
                    match self {
                        #( Self::#vnames(b) => __p::Builder::field(b, key, src), )*
                    }
                }
                fn finish<E: serde::de::Error>(self) -> ::core::result::Result<#name, E> {
                    Ok(match self {
                        #( Self::#vnames(b) => #name::#vnames(#finishes), )*
                    })
                }
            }

            #[doc(hidden)]
            impl __p::Keyed for #name {
                const MEMBERS: usize = #n;
                const EXPECTING: &'static str = #expecting;
                const NO_MATCH: &'static str = #no_match;
                type Builder = #builder;
                fn builder_for_key(key: &str) -> Option<#builder> {
                    match key {
                        #(#deciding)*
                        _ => None,
                    }
                }
                #guess_for_key
                #closest
                fn score<K: __p::KeySet + ?Sized>(member: usize, o: &K) -> Option<u32> {
                    match member {
                        #(#scores)*
                        _ => None,
                    }
                }
                #[inline]
                fn read_member(member: usize, o: &__p::RawObject<'_>) -> Option<::core::result::Result<Self, __p::KeptError>> {
                    match member {
                        #(#reads)*
                        _ => None,
                    }
                }
            }

            #fast

            impl<'de> serde::Deserialize<'de> for #name {
                fn deserialize<D: serde::Deserializer<'de>>(d: D) -> ::core::result::Result<Self, D::Error> {
                    __f::deserialize(d, __p::KeyedVisitor::<#name>::default())
                }
            }
        }
    }

    /// With a catch-all member: `guess_for_key`, which picks a struct member at a key that names
    /// it alone, and `settled`, which says whether the guess holds once the member is read.
    fn guess_for_key(&self, builder: &proc_macro2::Ident, keyed: &KeyedUnion, vnames: &[proc_macro2::Ident], vbuilders: &[TokenStream]) -> Option<TokenStream> {
        let members = &keyed.members;
        let guesses: Vec<TokenStream> = keyed
            .guessing
            .iter()
            .map(|(key, i)| {
                let (v, b) = (&vnames[*i], &vbuilders[*i]);
                quote! { #key => Some((#i, #builder::#v(#b::default()))), }
            })
            .collect();
        // A guessed member was read without its values being ranked: its closed enums must
        // hold no value another member claims, as the ranking of the whole object requires.
        let mut guessed: Vec<usize> = keyed.guessing.iter().map(|(_, i)| *i).collect();
        guessed.dedup();
        let settled_arms: Vec<TokenStream> = guessed
            .iter()
            .filter_map(|&i| {
                let owner = &members[i].item;
                let Some(ItemKind::Struct(s)) = (members[i].kind == MemberKind::Struct).then(|| self.space.item(owner).map(|o| &o.kind)).flatten() else { return None };
                let conds: Vec<TokenStream> = keyed.claimed[i]
                    .iter()
                    .filter_map(|(key, values)| {
                        let f = s.fields.iter().find(|f| f.name == *key)?;
                        let ident = format_ident!("{}", field_rust_name(self.config, &owner.name, &f.name));
                        Some(if f.optional {
                            quote! { v.#ident.as_ref().is_none_or(|e| ![#(#values),*].contains(&e.as_str())) }
                        } else {
                            quote! { ![#(#values),*].contains(&v.#ident.as_str()) }
                        })
                    })
                    .collect();
                let v = &vnames[i];
                (!conds.is_empty()).then(|| quote! { Self::#v(v) => #(#conds)&&*, })
            })
            .collect();
        let settled = (!settled_arms.is_empty()).then(|| {
            quote! {
                fn settled(&self) -> bool {
                    match self {
                        #(#settled_arms)*
                        _ => true,
                    }
                }
            }
        });
        (!guesses.is_empty()).then(|| {
            quote! {
                fn guess_for_key(key: &str) -> Option<(usize, #builder)> {
                    match key {
                        #(#guesses)*
                        _ => None,
                    }
                }
                #settled
            }
        })
    }
}

impl<'a> Ctx<'a> {
    /// How a member read as its own type becomes the union's variant (boxed where it would
    /// contain the union).
    fn member_wrap(&self, me: &TypeRef, name: &proc_macro2::Ident, v: &proc_macro2::Ident, ty: &Ty) -> TokenStream {
        if self.recursive(me, ty) {
            quote! { |m| #name::#v(Box::new(m)) }
        } else {
            quote! { #name::#v }
        }
    }

    /// One `member => read` arm per member, in order: `read` gets the member's kind, type, builder
    /// and the expression that wraps its value as the union's variant.
    fn member_arms(&self, item: &Item, u: &Union, keyed: &KeyedUnion, tokens: &MemberTokens, read: impl Fn(&MemberKind, &TokenStream, &TokenStream, TokenStream) -> TokenStream) -> Vec<TokenStream> {
        let name = format_ident!("{}", item.name);
        let me = self.here(&item.name);
        keyed
            .members
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let wrap = self.member_wrap(&me, &name, &tokens.names[i], &u.variants[i].ty);
                let body = read(&m.kind, &tokens.tys[i], &tokens.builders[i], wrap);
                quote! { #i => #body, }
            })
            .collect()
    }

    /// A keyed union as the crate's reader reads it: its builder's table and slots, and each
    /// member read by the table path (see `read::fast::read_keyed`).
    fn keyed_fast_read(&self, item: &Item, u: &Union, keyed: &KeyedUnion, tokens: &MemberTokens) -> TokenStream {
        let name = format_ident!("{}", item.name);
        let builder = builder_ident(&item.name);
        let fast_reads = self.member_arms(item, u, keyed, tokens, |kind, t, b, wrap| {
            let read = match kind {
                MemberKind::Struct => quote! { __f::read_struct::<#b>(r) },
                MemberKind::Tagged | MemberKind::Keyed => quote! { <#t as __f::FastRead>::read_fast(r) },
            };
            quote! { Some(#read.map(#wrap)) }
        });
        let slots = super::unions::member_slots(&builder, &tokens.names, false);
        let fast_read = super::unions::union_fast_read(&name, quote! { __f::read_keyed });
        quote! {
            #slots

            #fast_read

            #[doc(hidden)]
            impl __f::KeyedFast for #name {
                #[inline]
                fn read_member_fast(member: usize, r: &mut __f::Reader<'_>) -> Option<__f::Fast<Self>> {
                    match member {
                        #(#fast_reads)*
                        _ => None,
                    }
                }
            }
        }
    }
}
