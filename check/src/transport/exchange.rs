//! The rules on a whole exchange, run when it ends: its request (headers, body, the session's
//! state when it came) against its response (status, content type, body, stream).

use super::engine::{same_origin, Exchange, Transport};
use super::diag;
use super::rules::{self, Rule};
use crate::bounded::clip;
use crate::vocab::Diag;
use crate::versions::version_index;

fn lists(header: Option<&str>, media: &str) -> bool {
    header.is_some_and(|h| h.split(',').any(|m| m.split(';').next().unwrap_or("").trim().eq_ignore_ascii_case(media) || m.trim().starts_with("*/*")))
}

fn media_is(header: Option<&str>, media: &str) -> bool {
    header.is_some_and(|h| h.split(';').next().unwrap_or("").trim().eq_ignore_ascii_case(media))
}

fn shown(v: Option<&str>) -> String {
    match v {
        Some(v) => format!("`{}`", clip(v)),
        None => "none".into(),
    }
}

impl Transport {
    pub(super) fn end_rules(&self, ex: &Exchange, bytes: Option<u64>, complete: bool) -> Vec<Diag> {
        let v = Transport::version_of(ex);
        let mut out = Vec::new();
        let mut add = |rule: &'static Rule, message: String| {
            if rule.applies(v) {
                out.push(diag(rule, "", message));
            }
        };
        let post = ex.method == "POST";
        let get = ex.method == "GET";
        let status = ex.status;
        let ok = status.is_some_and(|s| (200..300).contains(&s));
        let sid = ex.req.session_id.as_deref();

        // The request side.
        if post && !ex.legacy {
            if !(lists(ex.req.accept.as_deref(), "application/json") && lists(ex.req.accept.as_deref(), "text/event-stream")) {
                add(&rules::POST_ACCEPT, format!("the POST's `Accept` is {}, which does not list both `application/json` and `text/event-stream`", shown(ex.req.accept.as_deref())));
            }
            if ex.req_lines == 0 {
                add(&rules::POST_BODY, "the POST carries no JSON-RPC message".into());
            } else if ex.req_lines > 1 {
                add(&rules::POST_BODY, format!("the POST carries {} JSON-RPC messages, not one", ex.req_lines));
            } else if ex.has_response && rules::SSE_NO_REQUESTS.applies(v) {
                add(&rules::POST_BODY, "the POST carries a JSON-RPC response, which this version's clients never send".into());
            }
        }
        // Every request after initialization (GET and DELETE too); in 2026-07-28 every POST of a
        // request (the page leaves a notification POST's headers undefined).
        if !ex.legacy {
            match ex.req.protocol_version.as_deref() {
                None if (ex.negotiated.is_some() && !ex.has_initialize) || (post && ex.has_request() && rules::VERSION_META.applies(v)) => add(&rules::VERSION_HEADER, format!("the {} has no `MCP-Protocol-Version` header", ex.method)),
                Some(h) => {
                    if let Some(n) = ex.negotiated.filter(|n| *n != h) {
                        add(&rules::VERSION_NEGOTIATED, format!("`MCP-Protocol-Version` is `{}`, the session negotiated {n}", clip(h)));
                    }
                    if let Some(m) = ex.meta_version.as_deref().filter(|m| *m != h) {
                        add(&rules::VERSION_META, format!("`MCP-Protocol-Version` is `{}`, the body's `_meta` says `{}`", clip(h), clip(m)));
                    }
                }
                None => {}
            }
        }
        if ex.off_endpoint {
            add(&rules::SSE_POST_ENDPOINT, format!("a POST to `{}`, not to an endpoint the server announced", clip(&ex.path)));
        }
        if !ex.legacy && sid.is_none() && ex.live_session && !ex.has_initialize {
            add(&rules::SESSION_ID_MISSING, "a request without `Mcp-Session-Id` while a session is open".into());
            if status.is_some_and(|s| s != 400) {
                add(&rules::SESSION_REQUIRED_400, format!("the server, which assigns sessions, answered a request without a session id with {}, not 400", status.unwrap_or_default()));
            }
        }
        if ex.unissued {
            add(&rules::SESSION_ID_UNISSUED, format!("the request's `Mcp-Session-Id` {} is none the server assigned in the recording", shown(sid)));
        }
        if sid.is_some() && ex.session_got_404 {
            add(&rules::SESSION_RESTART, "the request carries a session id the server answered 404 to before".into());
        }
        if get && !lists(ex.req.accept.as_deref(), "text/event-stream") {
            add(&rules::GET_ACCEPT, format!("the GET's `Accept` is {}, which does not list `text/event-stream`", shown(ex.req.accept.as_deref())));
        }
        if let Some(id) = ex.req.last_event_id.as_deref() {
            if get && !ex.last_event_known {
                add(&rules::LAST_EVENT_ID_KNOWN, format!("`Last-Event-ID` {} names no event id the server sent in the recording", crate::bounded::shown(&serde_json::Value::String(id.to_string()))));
            }
        }

        // The response.
        let Some(status) = status else { return out };
        if ok {
            if let (Some(origin), Some(host)) = (ex.req.origin.as_deref(), ex.req.host.as_deref()) {
                if origin != "null" && !same_origin(origin, host) {
                    add(&rules::ORIGIN, format!("`Origin` {} is not the server's own (`Host` {}) and the request was answered {status}", shown(Some(origin)), shown(Some(host))));
                }
            }
        }
        for (which, value) in [("request", ex.req.session_id.as_deref()), ("response", ex.resp.session_id.as_deref())] {
            if let Some(bad) = value.and_then(|s| s.chars().find(|c| !('\x21'..='\x7e').contains(c))) {
                add(&rules::SESSION_ID_CHARS, format!("the {which}'s `Mcp-Session-Id` holds {:?} (U+{:04X}), not visible ASCII", bad, bad as u32));
                break;
            }
        }
        if sid.is_some() && ex.session_ended && status != 404 {
            add(&rules::SESSION_ENDED_404, format!("a request on a session ended by DELETE was answered {status}, not 404"));
        }
        if let Some(h) = ex.req.protocol_version.as_deref() {
            let bad = version_index(h).is_none() || (rules::VERSION_META.applies(v) && ex.meta_version.as_deref().is_some_and(|m| m != h));
            if bad && ok {
                add(&rules::VERSION_400, format!("a request with `MCP-Protocol-Version` `{}` was answered {status}, not 400", clip(h)));
            }
        }
        if ex.header_mismatch && ok {
            add(&rules::HEADER_MISMATCH_400, format!("a request whose mirrored headers do not match its body was answered {status}, not 400 with the error -32020"));
        }
        let content_type = ex.resp.content_type.as_deref();
        let sse = media_is(content_type, "text/event-stream");
        let json = media_is(content_type, "application/json");
        if get && !ex.legacy && ok && !sse {
            add(&rules::GET_RESPONSE, format!("the GET was answered {status} with `Content-Type` {}, neither an SSE stream nor 405", shown(content_type)));
        }
        if post && !ex.legacy && ex.req_lines > 0 {
            if ex.has_request() {
                if ok && !sse && !json {
                    add(&rules::REQUEST_CONTENT_TYPE, format!("a POST with a request was answered {status} with `Content-Type` {}", shown(content_type)));
                }
                // A request the client cancelled is owed no answer (the receiver SHOULD NOT send one).
                let unanswered = ex.requests.iter().filter(|id| !ex.answered.contains(id) && !ex.cancelled.contains(id)).count();
                if ok && json && unanswered > 0 {
                    add(&rules::JSON_ANSWER, format!("the JSON answer holds no response to {unanswered} of the POST's {} requests", ex.requests.len()));
                }
                if ok && sse && complete && unanswered > 0 {
                    if !ex.sent_event_id {
                        add(&rules::SSE_ANSWER, format!("the SSE stream ended without the response to {unanswered} of the POST's {} requests (and sent no event id to resume from)", ex.requests.len()));
                    } else if !ex.retry {
                        add(&rules::SSE_RETRY, "the server closed the stream before answering the POST's request without sending a `retry` field".into());
                    }
                }
            } else {
                let body = bytes.is_some_and(|b| b > 0) || ex.resp_messages > 0;
                if ok && status != 202 {
                    add(&rules::ACCEPTED_202, format!("a POST of only notifications or responses was answered {status}, not 202"));
                } else if status == 202 && body {
                    add(&rules::ACCEPTED_202, format!("the 202 answer to a POST of only notifications or responses has a body ({} bytes)", bytes.unwrap_or(0)));
                } else if status >= 400 && ex.resp_not_error {
                    add(&rules::ACCEPTED_202, format!("the {status} answer to a POST of only notifications or responses carries a JSON-RPC message other than an error response"));
                }
            }
        }
        out
    }
}
