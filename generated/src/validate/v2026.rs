//! Rules that 2026-07-28's `schema.ts` states in its comments and its
//! `schema.json` does not encode. The draft has the same text, so the rules are
//! attached (`[[check]]` in `schema/codegen.toml`) to `v2026_07_28`, `draft` and
//! `resource_metadata`.
//!
//! Every MUST, MUST NOT and REQUIRED in 2026-07-28's comments, and what became of it.
//! "session" means the rule relates two or more messages (or a message and the
//! transport), so one value cannot show it; those are left to a session checker.
//!
//! | Rule id | Where (type / field) | The requirement | Decision |
//! |---|---|---|---|
//! | `meta.key-name` | `MetaObject` | a key's prefix is dot-separated labels and a `/`; labels start with a letter and end with a letter or digit; a non-empty name starts and ends with a letter or digit | encoded already ([`super::meta`]) |
//! | n/a | `MetaObject` | implementations make no assumptions about the values at reserved keys | behaviour, not a property of a value |
//! | `required` | `RequestMetaObject` `protocolVersion`, `clientCapabilities` ("Required.") | present on every request | encoded by the types |
//! | n/a | `RequestMetaObject` `protocolVersion` | on HTTP it equals the `MCP-Protocol-Version` header, else the server answers `400`; an unsupported version is answered with `UnsupportedProtocolVersionError` | session (transport, and the answer to a request) |
//! | n/a | `RequestMetaObject` `clientCapabilities` | servers do not carry capabilities over from earlier requests | session |
//! | n/a | `RequestMetaObject` `logLevel` | without it the server sends no `notifications/message` for the request | session |
//! | n/a | `NotificationMetaObject` `subscriptionId` | every notification on a `subscriptions/listen` stream carries it | session |
//! | `required` | `Result` `resultType` | servers of this version include it (a client reads a missing one as `complete`) | encoded: read leniently, validated as required (`[[lenient_field]]`) |
//! | n/a | `HeaderMismatchError`, `UnsupportedProtocolVersionError`, `MissingRequiredClientCapabilityError` | on HTTP, the status is `400 Bad Request` | transport, not in the message |
//! | `input-required.request-or-state` | `InputRequiredResult` | `inputRequests`, `requestState` or both are present | checked here, [`input_required`] (error), also on `Result` for a union that reads such a value as `EmptyResult` |
//! | n/a | `InputResponseRequestParams` `inputResponses` (lower-case "must") | answers every key of the previous result's `inputRequests` | session |
//! | n/a | `CancelledNotificationParams` `requestId` | names a request the sender issued earlier | session |
//! | n/a | `CancelledNotification` | a server sends it only to end a `subscriptions/listen` stream | session |
//! | n/a | `DiscoverRequest` | servers implement `server/discover` | session (the answer to a request) |
//! | `capabilities.extension-key` | `ClientCapabilities` / `ServerCapabilities` `extensions` | keys follow the `_meta` key syntax and have a prefix | checked here, [`extension_keys`] (error) |
//! | n/a | `Icons` `icons` | clients that render icons support PNG and JPEG | client behaviour (icon types are checked by `icon.mime-type`) |
//! | n/a | `CacheableResult` `cacheScope` | `private` responses are not cached across authorization contexts | behaviour |
//! | n/a | `SubscriptionFilter`, `SubscriptionsListenRequestParams` `notifications` | the server sends only the notification types the client asked for | session |
//! | n/a | `SubscriptionsAcknowledgedNotification` | the first message of a subscription; nothing is sent on it before | session |
//! | n/a | `CreateMessageRequestParams` `tools`, `toolChoice` | the client answers with an error when they are given without the `sampling.tools` capability | session (capabilities travel on the client's own request) |
//! | n/a | `ToolChoice` `mode` | `required`: the model uses a tool; `none`: it uses none | session (the request and its result) |
//! | `sampling.tool-use-id` | `ToolResultContent` `toolUseId` | equals the `id` of an earlier `ToolUseContent` | checked here on `CreateMessageRequestParams`, whose `messages` carry the conversation, [`tool_use_ids`] (error) |
//! | n/a | `ModelPreferences` `hints` | the client evaluates hints in order | client behaviour |

use crate::tree::Node;

use super::Cx;

/// `InputRequiredResult`: a result that asks for input says what it needs
/// (`inputRequests`) or what to send back (`requestState`), or both. Also run on
/// `Result` (`EmptyResult`), which is what a result union reads such a value as
/// when it has neither key; there `resultType: "input_required"` marks it.
pub fn input_required<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(o) = v.as_object() else { return };
    // Without the tag it is some other result (or the missing tag is `required`'s error).
    if o.get("resultType").and_then(Node::as_str) != Some("input_required") {
        return;
    }
    if !o.contains_key("inputRequests") && !o.contains_key("requestState") {
        cx.error("input-required.request-or-state", "an InputRequiredResult must carry `inputRequests`, `requestState` or both");
    }
}

/// `ClientCapabilities` and `ServerCapabilities`: each key of `extensions` is an
/// extension id, written like a `_meta` key and always with a prefix.
pub fn extension_keys<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(extensions) = v.get("extensions").and_then(Node::as_object) else { return };
    cx.key("extensions", |cx| {
        for key in extensions.keys() {
            let problem = match super::meta::key_name(key) {
                Err(why) => Some(why),
                Ok(()) if super::meta::split(key).0.is_none() => Some("an extension id needs a prefix (e.g. `com.example/`)".to_string()),
                Ok(()) => None,
            };
            if let Some(why) = problem {
                cx.key(key, |cx| cx.error("capabilities.extension-key", format!("`{key}` is not a valid extension id: {why}")));
            }
        }
    });
}

/// `CreateMessageRequestParams`: every `tool_result` answers a `tool_use` of an
/// earlier message (its `toolUseId` is that block's `id`).
pub fn tool_use_ids<'v>(v: Node<'v>, cx: &mut Cx<'v>) {
    let Some(messages) = v.get("messages").and_then(Node::as_array) else { return };
    let mut used: Vec<&str> = Vec::new();
    cx.key("messages", |cx| {
        for (i, message) in messages.iter().enumerate() {
            let blocks = blocks(message);
            cx.index(i, |cx| {
                for (j, block) in &blocks {
                    if block.get("type").and_then(Node::as_str) != Some("tool_result") {
                        continue;
                    }
                    let Some(id) = block.get("toolUseId").and_then(Node::as_str) else { continue };
                    if !used.contains(&id) {
                        let report = |cx: &mut Cx<'v>| cx.key("toolUseId", |cx| cx.error("sampling.tool-use-id", format!("`{id}` is not the id of a `tool_use` block in an earlier message")));
                        cx.key("content", |cx| match j {
                            Some(j) => cx.index(*j, report),
                            None => report(cx),
                        });
                    }
                }
            });
            // A message's own tool uses are answered by later messages, not by itself.
            used.extend(blocks.iter().filter(|(_, b)| b.get("type").and_then(Node::as_str) == Some("tool_use")).filter_map(|(_, b)| b.get("id").and_then(Node::as_str)));
        }
    });
}

/// A sampling message's content blocks, with their index when `content` is an array.
fn blocks(message: Node<'_>) -> Vec<(Option<usize>, Node<'_>)> {
    match message.get("content") {
        Some(n) if n.is_array() => n.as_array().into_iter().flatten().enumerate().map(|(j, b)| (Some(j), b)).collect(),
        Some(block) if block.is_object() => vec![(None, block)],
        _ => Vec::new(),
    }
}
