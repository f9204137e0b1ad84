//! JSON round trips through a few golden types: what the expected sources do at run time.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

use crate::runtime::{Nullable, NotificationMethod, RequestMethod};

/// Reads `v` as `T`, checks it writes back the same JSON (through `Serialize` and through the
/// JSON-only `WriteJson`, byte for byte the same), and returns it.
fn roundtrip<T: Serialize + DeserializeOwned + crate::write::WriteJson>(v: Value) -> T {
    let t: T = serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("reading {v}: {e}"));
    assert_eq!(serde_json::to_value(&t).unwrap(), v, "written back differently");
    let serde_bytes = serde_json::to_vec(&t).unwrap();
    assert_eq!(String::from_utf8(t.to_json_vec()).unwrap(), String::from_utf8(serde_bytes).unwrap(), "WriteJson differs from serde_json");
    t
}

fn rejects<T: DeserializeOwned>(v: Value) -> String {
    match serde_json::from_value::<T>(v.clone()) {
        Ok(_) => panic!("{v} was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn tagged_union_keeps_unknown_tag() {
    use crate::tagged_method::*;
    let open: HouseCommand = roundtrip(json!({"method": "door/open", "door": "front"}));
    assert!(matches!(&open, HouseCommand::OpenDoor(d) if d.door == "front"));
    let close: HouseCommand = roundtrip(json!({"force": true, "door": "back", "method": "door/close"}));
    assert!(matches!(&close, HouseCommand::CloseDoor(d) if d.force == Some(true)));
    let unknown: HouseCommand = roundtrip(json!({"method": "door/lock", "door": "front", "code": [1, 2]}));
    match unknown {
        HouseCommand::Unknown(m) => assert_eq!(m["method"], "door/lock"),
        other => panic!("expected Unknown, got {other:?}"),
    }
    // A known tag with a missing required field is an error, not an Unknown.
    rejects::<HouseCommand>(json!({"method": "door/open"}));
    // Without the tag there is no variant to choose.
    rejects::<HouseCommand>(json!({"door": "front"}));
}

#[test]
fn tagged_union_in_an_array_and_nested() {
    let page: crate::tagged_type::Page = roundtrip(json!({"blocks": [{"type": "text", "text": "hi"}, {"type": "picture", "url": "u"}, {"type": "video"}]}));
    use crate::tagged_type::PageBlocksItem as B;
    assert!(matches!(page.blocks.as_slice(), [B::TextBlock(_), B::PictureBlock(_), B::Unknown(_)]));

    use crate::nested_unions::*;
    let basket: Basket = roundtrip(json!({"items": [{"kind": "pear"}, {"kind": "carrot", "length": 3}, {"kind": "apple", "crisp": true}, {"kind": "plum"}]}));
    assert!(matches!(
        basket.items.as_slice(),
        [Produce::Fruit(Fruit::Pear(_)), Produce::Carrot(_), Produce::Fruit(Fruit::Apple(_)), Produce::Unknown(_)]
    ));
}

#[test]
fn tag_with_a_default() {
    use crate::tag_default::*;
    let without: Answer = roundtrip(json!({"output": "ok"}));
    assert!(matches!(&without, Answer::Done(d) if !d.status && d.output == "ok"));
    let with: Answer = roundtrip(json!({"status": "done", "output": "ok"}));
    assert!(matches!(&with, Answer::Done(d) if d.status));
    let pending: Answer = roundtrip(json!({"status": "pending", "retryAfter": 5}));
    assert!(matches!(&pending, Answer::Pending(p) if p.retry_after == 5));
    assert!(matches!(roundtrip::<Answer>(json!({"status": "lost"})), Answer::Unknown(_)));
}

#[test]
fn open_member_takes_other_tags() {
    use crate::tag_open_member::*;
    assert!(matches!(roundtrip::<Contact>(json!({"channel": "sms", "number": "1"})), Contact::Sms(_)));
    let custom: Contact = roundtrip(json!({"channel": "pigeon", "target": {"loft": 3}}));
    assert!(matches!(&custom, Contact::CustomChannel(c) if c.channel == "pigeon"));
}

#[test]
fn structural_unions() {
    use crate::union_by_keys::*;
    assert!(matches!(roundtrip::<Lookup>(json!({"code": "x"})), Lookup::ByCode(_)));
    assert!(matches!(roundtrip::<Lookup>(json!({"from": 1, "to": 9})), Lookup::ByRange(_)));
    assert!(matches!(roundtrip::<Lookup>(json!({"name": "n", "exact": false})), Lookup::ByName(_)));
    rejects::<Lookup>(json!({"from": 1}));

    use crate::union_by_kind::*;
    assert_eq!(roundtrip::<TicketId>(json!("A-1")), TicketId::String("A-1".into()));
    assert_eq!(roundtrip::<TicketId>(json!(7)), TicketId::Integer(7));
    assert!(matches!(roundtrip::<Anything>(json!(["a", "b"])), Anything::StringArray(v) if v.len() == 2));
    assert!(matches!(roundtrip::<Anything>(json!({"name": "f"})), Anything::Flag(_)));
    assert!(matches!(roundtrip::<Anything>(json!(false)), Anything::Boolean(false)));
    rejects::<TicketId>(json!(true));

    use crate::single_or_array::*;
    let one: Letter = roundtrip(json!({"to": {"address": "a"}, "tags": "x"}));
    assert!(matches!(one.to, LetterTo::Recipient(_)));
    assert!(matches!(one.tags, Some(LetterTags::String(_))));
    let many: Letter = roundtrip(json!({"to": [{"address": "a"}, {"address": "b"}], "tags": ["x"]}));
    assert!(matches!(many.to, LetterTo::RecipientArray(v) if v.len() == 2));
}

#[test]
fn a_union_with_a_catch_all_reads_the_same_with_and_without_guessing() {
    use crate::union_with_catch_all::*;
    let read = |text: &str| -> AnyReply {
        let plain: AnyReply = serde_json::from_str(text).unwrap();
        let guessed: AnyReply = mcp_spec_types::from_str(text).unwrap();
        assert_eq!(plain, guessed, "{text}");
        assert_eq!(serde_json::to_value(&plain).unwrap(), serde_json::from_str::<serde_json::Value>(text).unwrap());
        plain
    };
    assert!(matches!(read(r#"{"count":2}"#), AnyReply::CountReply(_)));
    // `count` names CountReply alone, but its value is no number: CountReply's error, never the
    // catch-all (which only takes objects without the other members' keys).
    for text in [r#"{"count":"two"}"#, r#"{"count":"two","other":1}"#] {
        let plain = serde_json::from_str::<AnyReply>(text).unwrap_err().to_string();
        assert_eq!(mcp_spec_types::from_str::<AnyReply>(text).unwrap_err().to_string(), plain);
        assert!(plain.contains("invalid type"), "{plain}");
    }
    // `next` is only optional in ListReply, so it says nothing: the catch-all keeps the object
    // (as it keeps a newer version's reply that reuses such a key).
    assert!(matches!(read(r#"{"next":"n"}"#), AnyReply::Reply(_)));
    // Only ListReply requires `items`: an unreadable one is ListReply's error.
    let e = serde_json::from_str::<AnyReply>(r#"{"items":"x","next":"n"}"#).unwrap_err().to_string();
    assert_eq!(mcp_spec_types::from_str::<AnyReply>(r#"{"items":"x","next":"n"}"#).unwrap_err().to_string(), e);
    assert!(e.contains("invalid type"), "{e}");
    assert!(matches!(read(r#"{"_meta":{"k":1},"other":true}"#), AnyReply::Reply(_)));
    assert!(matches!(read(r#"{}"#), AnyReply::Reply(_)));
    // A tie on keys goes to the member declared first, whichever key came first.
    assert!(matches!(read(r#"{"count":2,"items":["a"],"next":"n"}"#), AnyReply::ListReply(_)));
    // More keys named wins, wherever the guessing key comes.
    assert!(matches!(read(r#"{"items":["a"],"count":2}"#), AnyReply::CountReply(_)));
    assert!(matches!(read(r#"{"count":2,"items":["a"]}"#), AnyReply::CountReply(_)));
    assert!(matches!(read(r#"{"other":true}"#), AnyReply::Reply(_)));
}

#[test]
fn null_is_not_absent() {
    use crate::never_and_null::*;
    let a: Answer = roundtrip(json!({"value": "v", "parent": null}));
    assert_eq!(a.comment, None);
    assert_eq!(a.parent, Nullable::Null);
    let b: Answer = roundtrip(json!({"value": "v", "comment": null, "parent": 3}));
    // KNOWN GENERATOR BUG: an optional nullable field reads `null` as absent (`None`) and
    // parks the null in `extra`, because its arm is `__p::optional`, which takes `Option<T>`.
    assert_eq!(b.comment, Some(Nullable::Null), "`comment?: string | null` sent as null must read as Some(Null), not None");
    assert!(!b.extra.contains_key("comment"), "a declared field must not end up in `extra`");
    assert_eq!(b.parent, Nullable::Value(3));
    let c: Answer = roundtrip(json!({"value": "v", "comment": "c", "parent": 3}));
    assert_eq!(c.comment, Some(Nullable::Value("c".to_string())));
    // `parent` is required even though it may be null.
    rejects::<Answer>(json!({"value": "v"}));
    // A `never` key is not a field; if sent anyway it is kept, not lost.
    let d: Answer = roundtrip(json!({"value": "v", "parent": null, "error": "boom"}));
    assert_eq!(d.extra["error"], "boom");

    assert_eq!(roundtrip::<MaybeAnswer>(json!(null)), Nullable::Null);
    assert!(matches!(roundtrip::<MaybeAnswer>(json!({"value": "v", "parent": 1})), Nullable::Value(_)));
}

#[test]
fn literals_and_indexed_access() {
    use crate::intersection_error_field::*;
    let f: OrderFailed = roundtrip(json!({"id": "o1", "error": {"code": -32050, "message": "gone", "data": {"item": "tea"}}}));
    assert_eq!(f.error.data.item, "tea");
    rejects::<OrderFailed>(json!({"id": "o1", "error": {"code": -1, "message": "gone", "data": {"item": "tea"}}}));
    assert_eq!(OUT_OF_STOCK, -32050);

    use crate::indexed_access::*;
    assert_eq!(WATER_METHOD, "garden/water");
    assert_eq!(VERSION, "1.2");
    roundtrip::<WaterLog>(json!({"method": "garden/water", "when": "now"}));
    rejects::<WaterLog>(json!({"method": "garden/dig", "when": "now"}));

    use crate::typeof_consts::*;
    assert_eq!((DIALECT, SENSOR_LOST), ("greenhouse/1", -40012));
    roundtrip::<SensorLost>(json!({"code": -40012, "sensor": "s1"}));
    rejects::<Hello>(json!({"dialect": "greenhouse/2"}));
}

#[test]
fn index_signatures_and_records() {
    use crate::index_signatures::*;
    let c: Counts = roundtrip(json!({"total": 3, "apples": 2, "pears": 1}));
    assert_eq!(c.extra.get("apples"), Some(&2));
    rejects::<Counts>(json!({"total": 3, "apples": "two"}));
    let p: Palette = roundtrip(json!({"sky": "blue"}));
    assert_eq!(p["sky"], "blue");

    use crate::records::*;
    let t: Theatre = roundtrip(json!({"seats": {"A1": {"row": 1}}, "sides": {"left": "stage door"}}));
    assert_eq!(t.sides.left.as_deref(), Some("stage door"));
    assert_eq!(t.sides.right, None);
}

#[test]
fn recursive_json_alias() {
    use crate::recursive_alias::*;
    let tree: Tree = roundtrip(json!({"label": "root", "children": [{"label": "leaf", "payload": {"a": [1, "x", null, true, {"b": []}]}}]}));
    let payload = tree.children.unwrap()[0].payload.clone().unwrap();
    assert!(matches!(payload, Json::JsonMap(m) if matches!(&m["a"], Json::JsonArray(v) if v.len() == 5)));
}

#[test]
fn extends_omit_and_imports() {
    use crate::extends_omit::*;
    // `sender` was omitted: it is an unknown key now, kept in `extra`.
    let s: Sample = roundtrip(json!({"weight": 2, "scale": "kitchen", "sender": "me"}));
    assert_eq!(s.extra["sender"], "me");

    let w: crate::imports_ext::FancyWidget = roundtrip(json!({"id": "w", "hue": "green", "sparkle": true}));
    assert_eq!(w.hue, crate::imports_core::Colour::Green);
    let shelf: crate::imports_ext::Shelf = roundtrip(json!({"widgets": [{"id": "a"}]}));
    let _: &crate::imports_core::Widget = &shelf.widgets[0];
}

#[test]
fn method_registry() {
    use crate::requests_notifications::*;
    assert_eq!(<ClockRequest as RequestMethod>::METHOD, "clock/read");
    assert_eq!(<EchoRequest as RequestMethod>::METHOD, "echo");
    assert_eq!(<ClockJumpedNotification as NotificationMethod>::METHOD, "notifications/clock/jumped");
    let _: Option<<ClockRequest as RequestMethod>::Result> = None::<ClockResult>;
    let _: Option<<EchoRequest as RequestMethod>::Result> = None::<EmptyResult>;
    roundtrip::<ClockJumpedNotification>(json!({"method": "notifications/clock/jumped", "params": {"by": 60}}));
    assert!(REQUESTS.contains(&("echo", "EchoRequest", "EmptyResult")));
    assert_eq!(NOTIFICATIONS, &[("notifications/clock/jumped", "ClockJumpedNotification")]);
}

#[test]
fn shared_types_are_the_home_modules_types_and_the_rest_are_their_own() {
    use crate::{shared_base as base, shared_next as next};
    use std::any::TypeId;
    // Same code, docs aside: one type.
    assert_eq!(TypeId::of::<next::Point>(), TypeId::of::<base::Point>());
    assert_eq!(TypeId::of::<next::PointRequest>(), TypeId::of::<base::PointRequest>());
    // Changed, or holding something changed (a field, a request's result): their own.
    assert_ne!(TypeId::of::<next::Marker>(), TypeId::of::<base::Marker>());
    assert_ne!(TypeId::of::<next::Layer>(), TypeId::of::<base::Layer>());
    assert_ne!(TypeId::of::<next::MarkerRequest>(), TypeId::of::<base::MarkerRequest>());
    // The changed rule applies in the next module only.
    let m = r#"{"at":{"x":1,"y":2}}"#;
    assert!(serde_json::from_str::<base::Marker>(m).is_ok());
    assert!(serde_json::from_str::<next::Marker>(m).is_err());
    let layer: next::Layer = serde_json::from_str(r#"{"markers":[{"at":{"x":1,"y":2},"label":"a"}]}"#).unwrap();
    assert_eq!(layer.markers[0].label, "a");
}

#[test]
fn boxed_fields_read_and_write_as_inline_ones() {
    use crate::boxed_fields::*;
    let caps = json!({"roots": {"listChanged": true}, "sampling": {}, "x-extra": 1});
    let hello: Hello = roundtrip(json!({"capabilities": caps, "name": "a", "history": [caps, {}]}));
    assert_eq!(hello.capabilities.roots.as_ref().and_then(|r| r.list_changed), Some(true));
    assert!(hello.fallback.is_none(), "absent stays absent");
    // `null` in an optional boxed field is kept, as in any optional field.
    let with_null: Hello = roundtrip(json!({"capabilities": {}, "fallback": null, "name": "b"}));
    assert!(with_null.fallback.is_none() && with_null.extra.get("fallback") == Some(&Value::Null));
    // The constructor takes the value unboxed.
    let made = Hello::new(Capabilities::default(), "c");
    assert_eq!(serde_json::to_value(&made).unwrap(), json!({"capabilities": {}, "name": "c"}));
    assert!(rejects::<Hello>(json!({"name": "d"})).contains("capabilities"));
    // A type that is boxed for recursion and by configuration is boxed once.
    let node: Node = roundtrip(json!({"child": {"child": {"capabilities": {}}}}));
    assert!(node.child.as_ref().and_then(|c| c.child.as_ref()).is_some_and(|c| c.capabilities.is_some()));
}

#[test]
fn closed_enums_never_keys_and_number_fields() {
    use crate::keyed_literal_sets::*;
    // `type: "boolean"` ties with Scale on keys; Scale's closed `type` rules it out.
    let toggle: Field = roundtrip(json!({"type": "boolean", "title": "Confirm"}));
    assert!(matches!(toggle, Field::Toggle(_)), "{toggle:?}");
    let scale: Field = roundtrip(json!({"type": "integer", "title": "Age"}));
    assert!(matches!(scale, Field::Scale(_)), "{scale:?}");
    // A `type` no member names rules nobody out: Scale reads it as `Other`.
    let newer: Field = roundtrip(json!({"type": "date", "title": "Day"}));
    assert!(matches!(&newer, Field::Scale(s) if s.r#type == ScaleType::Other("date".into())), "{newer:?}");
    // `Note` takes any object, so `data` only guesses a Reply, and the guess must be what ranking
    // the whole object gives: a `mode` Quick claims is Quick's, a `mode` no member names is Reply's.
    for (v, want) in [
        (json!({"data": "x", "mode": "instant"}), "Quick"),
        (json!({"mode": "instant", "data": "x"}), "Quick"),
        (json!({"data": "x", "mode": "later"}), "Reply"),
        (json!({"data": "x", "mode": "fast"}), "Reply"),
        (json!({"note": "x", "other": 1}), "Note"),
    ] {
        let read: Outcome = roundtrip(v.clone());
        let guessed: Outcome = mcp_spec_types::from_slice(v.to_string().as_bytes()).unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(guessed, read, "{v}");
        let got = match &read {
            Outcome::Reply(_) => "Reply",
            Outcome::Quick(_) => "Quick",
            Outcome::Note(_) => "Note",
        };
        assert_eq!(got, want, "{v}");
    }
    // `data` is Reply's key, so Note (the catch-all) is out: Reply's error, from both readers.
    let plain = serde_json::from_str::<Outcome>(r#"{"data":"x"}"#).unwrap_err().to_string();
    assert_eq!(mcp_spec_types::from_slice::<Outcome>(br#"{"data":"x"}"#).unwrap_err().to_string(), plain);
    assert!(plain.contains("missing field `mode`"), "{plain}");
    // An `id`, whatever its value, is never a Signal's.
    let signal: Frame = roundtrip(json!({"op": "x"}));
    assert!(matches!(signal, Frame::Signal(_)), "{signal:?}");
    rejects::<Frame>(json!({"op": "x", "id": null}));
    // The configured field takes decimals; the other untagged number stays an integer.
    let answer: Answer = roundtrip(json!({"values": {"a": 95.5, "b": 2}, "count": 3}));
    assert!(matches!(answer.values.as_ref().unwrap()["a"], AnswerValuesValue::Number(_)));
    rejects::<Answer>(json!({"count": 3.5}));
}

#[test]
fn float_literal_field_writes_like_serde_json() {
    // The literal's spelling is the float printer's, written at run time by both paths.
    let v: crate::float_literal_field::Versioned = roundtrip(json!({"version": 2.5, "body": "b", "x": [1e300]}));
    assert_eq!(v.body, "b");
}
