//! The layout pass (`resolve::layout`) decides on the IR, before emit: what it records in
//! `TypeSpace::layout` for keyed unions and for types shared between modules.

#![forbid(unsafe_code)]

use generator::ir::*;
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

fn versions(names: &[&str], extra: &str) -> String {
    let modules: String = names.iter().enumerate().map(|(i, n)| format!("[[module]]\nname = \"{n}\"\nfeature = \"{n}\"\ninput = \"{n}.ts\"\ntitle = \"{n}\"\nprotocol = \"{}\"\n\n", i + 1)).collect();
    format!("{modules}{extra}")
}

fn pair<'a>(plan: &'a ConvertPlan, step: usize, src: &str) -> &'a ConvertPair {
    plan.steps[step].pairs.iter().find(|p| p.src.name == src).unwrap_or_else(|| panic!("no pair from {src} in step {step}: {:#?}", plan.steps[step].pairs))
}

fn has_case(plan: &ConvertPlan, from: &str, to: &str, place: &str, outcome: &str) -> bool {
    plan.cases.iter().any(|c| c.from == from && c.to == to && c.place == place && c.outcome.starts_with(outcome))
}

#[test]
fn conversions_are_planned_as_data() {
    let config = versions(&["a", "b"], "[[convert.rename]]\nfrom = \"Old\"\nto = \"New\"\nsince = \"b\"\nreason = \"renamed\"\n\n[[convert.refuse]]\nfield = \"task\"\nreason = \"no tasks\"\n");
    let a = r#"
export interface Tool { name: string; title?: string; task?: { ttl: number }; }
export interface Old { x: string; }
export interface Circle { type: "circle"; r: number; }
export interface Square { type: "square"; side: number; }
export type Shape = Circle | Square;
export type Mode = "fast" | "slow";
export interface Kinded { k: string; }
"#;
    let b = r#"
export interface Tool { name: string; icon?: string; }
export interface New { x: string; }
export interface Circle { type: "circle"; r: number; }
export interface Triangle { type: "triangle"; a: number; }
export type Shape = Circle | Triangle;
export type Mode = "fast" | "medium";
export type Kinded = "k1" | "k2";
"#;
    let space = space(&config, &[("a.ts", a), ("b.ts", b)]);
    let plan = &space.layout.convert;
    assert_eq!(plan.steps.len(), 2, "one step each way");
    // A field only in the source goes into the target's `extra`; a refused one fails instead;
    // a field only in the target comes out of the source's `extra`.
    let PairConversion::Struct { source_only, fields } = &pair(plan, 0, "Tool").how else { panic!("Tool converts field by field") };
    let title = source_only.iter().find(|f| f.key == "title").expect("title is a's only");
    assert_eq!(title.refused, None);
    let task = source_only.iter().find(|f| f.key == "task").expect("task is a's only");
    assert_eq!(task.refused.as_deref(), Some("Tool.task"));
    let icon = fields.iter().find(|f| f.key == "icon").expect("b's icon");
    assert!(matches!(icon.fill, Fill::FromExtra { take: Take::Optional { .. }, boxed: false }), "{icon:?}");
    assert!(matches!(fields.iter().find(|f| f.key == "name").expect("name").fill, Fill::Copy(FieldCopy { via_json: None, need: None, .. })));
    assert!(has_case(plan, "1", "2", "Tool.title", "kept in the target's `extra`") && has_case(plan, "1", "2", "Tool.task", "error `Refused`"));
    assert!(has_case(plan, "2", "1", "Tool.icon", "kept in the target's `extra`"));
    // A renamed type pairs with its new name, both ways.
    assert_eq!(pair(plan, 0, "Old").dst, at("b", "New"));
    assert_eq!(pair(plan, 1, "New").dst, at("a", "Old"));
    // A union member without a counterpart fails; the others convert member to member.
    let PairConversion::Union { arms, unknown } = &pair(plan, 0, "Shape").how else { panic!("Shape converts member by member") };
    assert_eq!(arms[0].to, MemberTarget::Convert { variant: Some("Circle".into()), boxed: false });
    assert_eq!(arms[1].to, MemberTarget::NotInTarget { place: "Shape.Square".into() });
    assert_eq!(unknown, &Some(UnknownArm::Keep));
    // An enum value the target lacks fails.
    let PairConversion::Enum { not_in_target } = &pair(plan, 0, "Mode").how else { panic!("Mode converts value by value") };
    assert_eq!(not_in_target, &[("Slow".to_string(), "Mode.slow".to_string())]);
    // A struct in one version and an enum in the other does not convert at all, and says so.
    assert!(plan.steps.iter().all(|s| s.pairs.iter().all(|p| p.src.name != "Kinded")));
    assert!(has_case(plan, "1", "2", "Kinded", "not converted"));
    println!("5 conversion cases checked, 0 failed");
}

#[test]
fn versions_further_apart_convert_through_each_version_in_between() {
    let config = versions(&["a", "b", "c"], "");
    let kept = "export interface Kept { x: string; }\n";
    let gone = "export interface Gone { y: string; }\n";
    let (a, b, c) = (format!("{kept}{gone}"), kept.to_string(), format!("{kept}{gone}"));
    let space = space(&config, &[("a.ts", &a), ("b.ts", &b), ("c.ts", &c)]);
    let plan = &space.layout.convert;
    assert!(plan.chains.contains(&ConvertChain { src: at("a", "Kept"), mid: at("b", "Kept"), dst: at("c", "Kept") }), "{:#?}", plan.chains);
    // `Gone` is in a and c but not b: no chain, and a row says why.
    assert!(plan.chains.iter().all(|c| c.src.name != "Gone"));
    assert!(has_case(plan, "1", "3", "Gone", "not converted") && has_case(plan, "3", "1", "Gone", "not converted"));
    assert!(plan.routes.iter().any(|r| r.name == "Kept" && r.from == "1" && r.to == "3"));
    assert!(plan.routes.iter().all(|r| r.name != "Gone"));
    println!("5 chain checks passed, 0 failed");
}
