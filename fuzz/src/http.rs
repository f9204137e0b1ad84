//! The property of the `proxy_http` fuzz target: the pure parts of `proxy --http`'s request
//! handling (the `Host`/`Origin` decision, the upstream URL mapping, the header rewriting, the
//! query redaction, the recording's request and response lines, and the body tap's splitting)
//! never panic, and hold what the proxy relies on. See tests/HOSTILE.md, section Fuzzing.

use mcp_spec_types_cli::proxy::http::guard::{split_host, Guard, Seen};
use mcp_spec_types_cli::proxy::http::record::{request_line, response_line};
use mcp_spec_types_cli::proxy::http::upstream::{strip_hop_by_hop, upstream_request_headers};
use mcp_spec_types_cli::proxy::http::{redact_query, tap_lines, Upstream};
use serde_json::Value;

use crate::show;

/// The input's fields, split on NUL: knobs (the first byte), `Host`, `Origin`, the request target,
/// the upstream URL, header lines (`name: value`, CRLF between), and a body.
struct Input<'a> {
    knobs: u8,
    host: &'a [u8],
    origin: &'a [u8],
    target: &'a [u8],
    upstream: &'a [u8],
    headers: &'a [u8],
    body: &'a [u8],
}

fn fields(data: &[u8]) -> Input<'_> {
    let (knobs, rest) = data.split_first().map_or((0, &[][..]), |(k, r)| (*k, r));
    let mut f = rest.splitn(6, |&b| b == 0);
    let mut next = || f.next().unwrap_or_default();
    Input { knobs, host: next(), origin: next(), target: next(), upstream: next(), headers: next(), body: next() }
}

const LISTEN: &str = "127.0.0.1:8808";

/// Whether the guard may let a request naming `host` pass: a loopback name, the listen address, or allowed.
fn may_pass(name: &str, allowed: &[String]) -> bool {
    let bare = name.trim_start_matches('[').trim_end_matches(']');
    name == "localhost" || bare.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback()) || allowed.iter().any(|a| a == "*" || a.split(':').next() == Some(name) || a == name)
}

fn guard(input: &Input) {
    let allowed: Vec<String> = if input.knobs & 1 == 1 { vec!["proxy.lan".into()] } else { Vec::new() };
    let origins: Vec<String> = if input.knobs & 2 == 2 { vec!["https://app.example".into()] } else { Vec::new() };
    let g = Guard::new(LISTEN.parse().unwrap(), &allowed, &origins);
    let hosts: Vec<&[u8]> = if input.host.is_empty() { Vec::new() } else { vec![input.host] };
    let origin: Vec<&[u8]> = if input.origin.is_empty() { Vec::new() } else { vec![input.origin] };
    let verdict = g.check(&Seen { http11: input.knobs & 4 == 0, hosts: &hosts, authority: None, origins: &origin });
    match &verdict {
        Ok(()) => {
            if let Some(h) = hosts.first() {
                let text = String::from_utf8_lossy(h);
                let (name, _) = split_host(&text).unwrap_or_else(|| panic!("a Host that is no host name passed: {}", show(h)));
                assert!(may_pass(&name, &allowed), "Host {} passed the guard", show(h));
            } else {
                assert!(input.knobs & 4 == 4, "an HTTP/1.1 request without Host passed");
            }
            if let Some(o) = origin.first() {
                let text = String::from_utf8_lossy(o).trim().trim_end_matches('/').to_ascii_lowercase();
                let listed = origins.iter().any(|a| *a == text);
                let own = text.split_once("://").and_then(|(_, rest)| split_host(rest)).is_some_and(|(name, _)| may_pass(&name, &allowed));
                assert!(listed || own, "Origin {} passed the guard", show(o));
            }
        }
        Err(r) => {
            assert!(r.status == 400 || r.status == 403, "status {}", r.status);
            assert!(!r.why.is_empty() && !r.why.contains('\n'), "reason {:?}", r.why);
        }
    }
}

/// The upstream's request target: always at the upstream's own scheme and authority, whatever the path.
fn mapping(input: &Input) {
    let url = String::from_utf8_lossy(input.upstream);
    let up = Upstream::parse(&url).unwrap_or_else(|_| Upstream::parse("https://example.test/api/mcp?key=k").unwrap());
    let target = String::from_utf8_lossy(input.target);
    let target = if target.starts_with('/') { target.into_owned() } else { format!("/{target}") };
    if let Ok(uri) = up.map(&target) {
        assert_eq!(uri.authority().map(|a| a.as_str()), Some(up.authority.as_str()), "{target} at {url} left the upstream: {uri}");
        assert_eq!(uri.scheme_str(), Some(if up.https { "https" } else { "http" }), "{target}: {uri}");
        assert!(uri.path().starts_with(&up.base), "{target}: {uri} is outside the base {}", up.base);
        if let Some(q) = &up.query {
            assert!(uri.query().is_some_and(|got| got.starts_with(q.as_str())), "{target}: the upstream's query {q} is not first in {uri}");
        }
    }
    let _ = up.endpoint(&target, "http://127.0.0.1:8808");
}

fn header_map(input: &Input) -> hyper::HeaderMap {
    let mut h = hyper::HeaderMap::new();
    for line in input.headers.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Some(colon) = line.iter().position(|&b| b == b':') else { continue };
        let (Ok(name), Ok(value)) = (hyper::header::HeaderName::from_bytes(&line[..colon]), hyper::header::HeaderValue::from_bytes(line[colon + 1..].trim_ascii())) else { continue };
        h.append(name, value);
    }
    if let Ok(v) = hyper::header::HeaderValue::from_bytes(input.host) {
        h.append(hyper::header::HOST, v);
    }
    h
}

/// The headers that go upstream: no hop-by-hop one left, `Host` the upstream's, once.
fn headers(input: &Input) {
    let h = header_map(input);
    let up = Upstream::parse("https://example.test/mcp").unwrap();
    let mut sent = h.clone();
    upstream_request_headers(&mut sent, &up);
    for hop in ["connection", "keep-alive", "proxy-connection", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"] {
        assert!(!sent.contains_key(hop), "{hop} went upstream");
    }
    assert_eq!(sent.get_all(hyper::header::HOST).iter().map(|v| v.as_bytes()).collect::<Vec<_>>(), [b"example.test"]);
    let mut back = h.clone();
    strip_hop_by_hop(&mut back);
    assert!(back.len() <= h.len());
}

/// The recording's request and response lines: one line of JSON each; no secret-looking query value kept.
fn lines(input: &Input) {
    let h = header_map(input);
    let target = String::from_utf8_lossy(input.target);
    let (path, query) = target.split_once('?').map_or((&*target, None), |(p, q)| (p, Some(q)));
    for line in [request_line(1, "POST", path, query, &h), response_line(1, 200, &h)] {
        assert!(!line.contains('\n'), "a recording line with a line break: {line}");
        let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        if let (Some(q), Some(kept)) = (query, v.pointer("/http/query").and_then(Value::as_str)) {
            assert_eq!(kept, redact_query(q));
        }
    }
    if let Some(q) = query {
        let r = redact_query(q);
        assert_eq!(r.split('&').count(), q.split('&').count(), "redaction changed the pairs: {q} -> {r}");
        assert_eq!(redact_query(&r), r, "redaction is not stable: {q}");
        for (before, after) in q.split('&').zip(r.split('&')) {
            assert_eq!(before.split('=').next(), after.split('=').next(), "a name changed: {before} -> {after}");
            let name = before.split('=').next().unwrap_or("").to_ascii_lowercase();
            if name == "api_key" || name == "access_token" || name == "token" {
                assert!(after == name_only(before) || !before.contains('=') || before.ends_with('='), "{before} kept its value: {after}");
            }
        }
    }
}

fn name_only(pair: &str) -> String {
    format!("{}=REDACTED", pair.split('=').next().unwrap_or(""))
}

/// The body tap: every line it writes is one line of JSON; a JSON request body within the limits is
/// one message line carrying it; a budget too small never panics and records the body as skipped.
fn tap(input: &Input) {
    let step = 1 + (input.knobs as usize >> 3) * 7;
    let chunks: Vec<&[u8]> = input.body.chunks(step).collect();
    let content_type = match input.knobs & 0x60 {
        0x00 => Some("application/json"),
        0x20 => Some("text/event-stream"),
        0x40 => Some("text/event-stream; charset=utf-8"),
        _ => None,
    };
    let budget = if input.knobs & 0x80 == 0 { 1 << 20 } else { input.body.len() / 2 };
    for response in [false, true] {
        let out = tap_lines(response, content_type, &chunks, budget);
        for l in &out {
            assert!(!l.contains('\n'), "a tap line with a line break: {l}");
            // A message keeps the bytes it travelled with: one serde_json refuses inside (a lone
            // surrogate escape) is still JSON in form, and `check` reports it as the proxy did.
            if let Err(e) = serde_json::from_str::<Value>(l) {
                assert!(l.starts_with("{\"dir\"") && serde_json::from_str::<serde::de::IgnoredAny>(l).is_ok(), "{e}: {l}\ninput: {}", show(input.body));
            }
        }
        if !response && budget >= input.body.len() {
            if let Ok(msg) = serde_json::from_slice::<Value>(input.body) {
                let first = out.iter().find(|l| l.starts_with("{\"dir\"")).unwrap_or_else(|| panic!("a JSON body left no message line: {}", show(input.body)));
                let Ok(v) = serde_json::from_str::<Value>(first) else { continue };
                assert!(v["msg"] == msg || v["msg"].is_null(), "the message line is not the body: {first}");
            }
        }
    }
}

/// `proxy_http`: see the module's comment.
pub fn proxy_http(data: &[u8]) {
    let input = fields(data);
    guard(&input);
    mapping(&input);
    headers(&input);
    lines(&input);
    tap(&input);
}
