//! The layout pass (`resolve::layout`) decides on the IR, before emit: what it records in
//! `TypeSpace::layout` for keyed unions and for types shared between modules.

use generator::ir::{KeyedMember, MemberGuard, MemberKind, TypeRef, TypeSpace};
use generator::{Config, Input};

fn space(config: &str, inputs: &[(&str, &str)]) -> TypeSpace {
    let config = Config::from_toml(config).expect("valid config");
    let inputs: Vec<Input> = inputs.iter().map(|(path, source)| Input { path: path.to_string(), source: source.to_string() }).collect();
    generator::type_space(&inputs, &config).unwrap_or_else(|d| panic!("{d}"))
}

fn at(module: &str, name: &str) -> TypeRef {
    TypeRef { module: module.into(), name: name.into() }
}

const ONE_MODULE: &str = "[[module]]\nname = \"m\"\nfeature = \"m\"\ninput = \"m.ts\"\ntitle = \"m\"\n";

#[test]
fn keyed_unions_are_decided_as_data() {
    let ts = r#"
export interface ByName { name: string; exact?: boolean; }
export interface ByCode { code: string; kind: "code" | "zip"; }
export interface Anything { note?: string; }
export type Lookup = ByName | ByCode;
export type Loose = ByName | Anything;
"#;
    let space = space(ONE_MODULE, &[("m.ts", ts)]);
    let layout = &space.layout;
    let lookup = &layout.keyed[&at("m", "Lookup")];
    assert_eq!(lookup.members, vec![KeyedMember { kind: MemberKind::Struct, item: at("m", "ByName") }, KeyedMember { kind: MemberKind::Struct, item: at("m", "ByCode") }]);
    assert_eq!(lookup.deciding, vec![("name".to_string(), 0), ("code".to_string(), 1), ("kind".to_string(), 1)]);
    assert!(lookup.guessing.is_empty() && lookup.named.is_empty());
    // `Anything` takes any object: no key decides alone, a key only `ByName` names is guessed,
    // and `name` rules the catch-all out.
    let loose = &layout.keyed[&at("m", "Loose")];
    assert!(loose.deciding.is_empty());
    assert_eq!(loose.guessing, vec![("name".to_string(), 0)]);
    assert_eq!(loose.guards[1], MemberGuard { claimed: vec![], rules_out: vec!["name".to_string()] });
    for scored in ["ByName", "ByCode", "Anything"] {
        assert!(layout.scored.contains(&at("m", scored)), "{scored} needs a key-only score");
    }
    assert!(!layout.keyed.contains_key(&at("m", "ByName")));
    println!("2 keyed unions checked, 0 failed");
}

#[test]
fn sharing_compares_the_ir_not_the_docs() {
    let config = "[[module]]\nname = \"a\"\nfeature = \"a\"\ninput = \"a.ts\"\ntitle = \"a\"\n\n[[module]]\nname = \"b\"\nfeature = \"b\"\ninput = \"b.ts\"\ntitle = \"b\"\nshare_with = \"a\"\n";
    let a = r#"
/** Said one way. */
export interface Docs { x: string; }
export interface Deprecation { x: string; }
export interface Constraint {
  /** @minimum 0 */
  n: number;
}
export interface Changed { x: string; }
export interface UsesChanged { c: Changed; }
export interface UsesDocs { d: Docs; }
"#;
    let b = r#"
/** Said another way, in the newer version. */
export interface Docs { x: string; }
/** @deprecated Use something else. */
export interface Deprecation { x: string; }
export interface Constraint {
  /** @minimum 1 */
  n: number;
}
export interface Changed { x: string; y?: string; }
export interface UsesChanged { c: Changed; }
export interface UsesDocs { d: Docs; }
"#;
    let space = space(config, &[("a.ts", a), ("b.ts", b)]);
    let shared: Vec<&str> = space.layout.shared["b"].iter().map(String::as_str).collect();
    // Docs differ only in prose: shared, and so is a type that refers only to shared types.
    // A new `@deprecated`, another constraint, another field, or a reference to a type that is
    // not shared each keep the type apart.
    assert_eq!(shared, ["Docs", "UsesDocs"]);
    assert!(!space.layout.shared.contains_key("a"));
    println!("6 types checked, 0 failed");
}
