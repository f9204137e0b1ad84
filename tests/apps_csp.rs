//! MCP Apps host helpers and rules (SEP-1865): the CSP a host builds from server-declared
//! domains, the one origin rule the builder and the `apps.csp-origin` check share, the client
//! capability, and the helpers on every version's `Tool`. `apps_browser.rs` loads the built
//! policies in Chromium.

use mcp_spec_types::apps::McpUiResourceCsp;
use mcp_spec_types::validate::apps::{self, AppTool, Csp, DEFAULT_CSP};
use mcp_spec_types::validate::{self, Options, Report, Severity};
use mcp_spec_types::{v2024_11_05 as v1, v2025_06_18 as v3, v2025_11_25 as v4, v2026_07_28 as v6};
use mcp_schema_tests::Tally;
use serde_json::{json, Value};

fn csp(v: Value) -> McpUiResourceCsp {
    serde_json::from_value(v).unwrap()
}

fn build(v: Value) -> Csp {
    apps::content_security_policy(Some(&csp(v)))
}

/// Directive name -> its sources, as a browser reads a policy (the first of a repeated name wins).
fn directives(policy: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for d in policy.split(';') {
        let mut words = d.split_ascii_whitespace().map(str::to_string);
        let Some(name) = words.next() else { continue };
        if !out.iter().any(|(n, _)| *n == name) {
            out.push((name, words.collect()));
        }
    }
    out
}

/// The sources a directive allows, falling back to `default-src` as CSP does for fetch directives.
fn sources<'a>(d: &'a [(String, Vec<String>)], name: &str) -> Option<&'a [String]> {
    let find = |n: &str| d.iter().find(|(k, _)| k == n).map(|(_, s)| s.as_slice());
    let falls_back = !matches!(name, "base-uri" | "form-action");
    find(name).or_else(|| if falls_back { find("default-src") } else { None })
}

/// Entries that are not origins. Each would widen the policy if copied into it.
const NOT_ORIGINS: &[&str] = &[
    "https://a.com; connect-src *",
    "https://a.com;",
    "https://a.com,https://b.com",
    "https://a.com https://b.com",
    "https://a.com\thttps://b.com",
    "https://a.com\n",
    " https://a.com",
    "'unsafe-eval'",
    "'unsafe-inline'",
    "'self'",
    "'none'",
    "'strict-dynamic'",
    "'nonce-abc'",
    "\"https://a.com\"",
    "'https://a.com'",
    "*",
    "https://*",
    "https://*.com",
    "https://a.*.com",
    "*.example.com",
    "https:",
    "data:",
    "blob:",
    "filesystem:",
    "javascript:",
    "javascript://a.com",
    "data://a.com",
    "ftp://a.com",
    "HTTPS://a.com",
    "https://",
    "https://a.com/path",
    "https://a.com?q",
    "https://a.com#f",
    "https://user@a.com",
    "https://a.com:",
    "https://a.com:99999",
    "https://a.com:*",
    "https://a.com:80:80",
    "https://a.com:+80",
    "https://a..com",
    "https://-a.com",
    "https://a_b.com",
    "https://exämple.com",
    "https://a.com\u{2028}",
    "https://[::1",
    "https://[zz::1]",
    "https://[::1]x",
    // Issue 27: browsers ignore IPv6 sources; a wildcard over a public suffix allows every site there.
    "http://[::1]:8080",
    "https://[::1]",
    "https://*.co.uk",
    "https://*.com.au",
    "wss://*.ne.jp:443",
    "https://*.github.io",
    "https://*.vercel.app",
    "example.com",
    "",
];

const ORIGINS: &[&str] = &[
    "https://a.com",
    "https://a.com/",
    "https://api.example.com:8443",
    "http://127.0.0.1:3000",
    "http://localhost:5173",
    "ws://127.0.0.1:9000",
    "wss://rt.example.com",
    "https://*.example.com",
    "https://*.cdn.example.co.uk:443",
    "https://xn--exmple-cua.com",
    "https://*.example.co.uk",
    "https://*.user.github.io",
];

#[test]
fn one_origin_rule_for_the_check_and_the_builder() {
    let mut tally = Tally::default();
    let options = Options::apps();
    for s in NOT_ORIGINS {
        let declared = json!({"connectDomains": ["https://ok.example"], "resourceDomains": [s], "frameDomains": [s], "baseUriDomains": [s]});
        // The validator, on a UI resource's contents.
        let contents = json!({"uri": "ui://w/v", "mimeType": apps::MIME_TYPE, "text": "x", "_meta": {"ui": {"csp": declared}}});
        let r = validate::validate_json::<v4::TextResourceContents>(&contents, &options);
        let pointers: Vec<_> = r.violations.iter().filter(|v| v.rule == "apps.csp-origin").map(|v| v.pointer.as_str()).collect();
        tally.check(match (apps::origin(s), pointers.as_slice()) {
            (Err(_), ["/_meta/ui/csp/baseUriDomains/0", "/_meta/ui/csp/frameDomains/0", "/_meta/ui/csp/resourceDomains/0"]) => Ok(()),
            (ok, p) => Err(format!("{s:?}: origin() = {ok:?}, violations at {p:?}")),
        });
        // The builder drops it with the same reason and keeps the valid entry.
        let built = build(declared);
        let fields: Vec<_> = built.dropped.iter().map(|d| (d.field, d.index, d.value.as_str())).collect();
        tally.check(if fields == [("resourceDomains", 0, *s), ("frameDomains", 0, *s), ("baseUriDomains", 0, *s)] && built.dropped[0].reason == apps::origin(s).unwrap_err() {
            Ok(())
        } else {
            Err(format!("{s:?}: dropped {:?}", built.dropped))
        });
        tally.check(if built.policy == "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; connect-src 'self' https://ok.example; img-src 'self' data:; font-src 'self'; media-src 'self' data:; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'" {
            Ok(())
        } else {
            Err(format!("{s:?}: policy {}", built.policy))
        });
    }
    for s in ORIGINS {
        let contents = json!({"uri": "ui://w/v", "mimeType": apps::MIME_TYPE, "text": "x", "_meta": {"ui": {"csp": {"resourceDomains": [s]}}}});
        let r = validate::validate_json::<v4::TextResourceContents>(&contents, &options);
        let built = build(json!({"resourceDomains": [s]}));
        let kept = s.strip_suffix('/').unwrap_or(s);
        tally.check(if apps::origin(s).is_ok() && r.violations.is_empty() && built.dropped.is_empty() && built.policy.contains(&format!("script-src 'self' 'unsafe-inline' {kept};")) {
            Ok(())
        } else {
            Err(format!("{s:?}: origin() = {:?}, violations {:?}, built {built:?}", apps::origin(s), r.violations))
        });
    }
    tally.finish("CSP origin rule");
}

#[test]
fn an_injected_directive_never_reaches_the_policy() {
    let built = build(json!({"resourceDomains": ["https://a.com; connect-src *", "https://cdn.example"], "connectDomains": ["https://api.example; script-src *"]}));
    let d = directives(&built.policy);
    assert_eq!(sources(&d, "connect-src").unwrap(), ["'none'"], "{}", built.policy);
    assert_eq!(sources(&d, "script-src").unwrap(), ["'self'", "'unsafe-inline'", "https://cdn.example"], "{}", built.policy);
    assert_eq!(built.dropped.len(), 2);
    assert_eq!(built.dropped[1].to_string(), "resourceDomains/0 \"https://a.com; connect-src *\" dropped [apps.csp-origin]: `;` cannot appear in an origin");
    // Every directive appears once, so none can be shadowed by an earlier copy.
    let names: Vec<_> = built.policy.split("; ").map(|d| d.split(' ').next().unwrap()).collect();
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(names.len(), unique.len(), "{}", built.policy);
}

#[test]
fn the_default_policy_is_the_strictest() {
    let d = directives(DEFAULT_CSP);
    // SEP-1865's required default, word for word.
    for (name, want) in [
        ("default-src", &["'none'"][..]),
        ("script-src", &["'self'", "'unsafe-inline'"]),
        ("style-src", &["'self'", "'unsafe-inline'"]),
        ("img-src", &["'self'", "data:"]),
        ("media-src", &["'self'", "data:"]),
        ("connect-src", &["'none'"]),
    ] {
        assert_eq!(sources(&d, name).unwrap(), want, "{name}");
    }
    // Directives that do not fall back to `default-src` are closed too.
    for name in ["base-uri", "form-action", "frame-src", "object-src"] {
        assert_eq!(sources(&d, name), Some(&["'none'".to_string()][..]), "{name} in {DEFAULT_CSP}");
    }
    // No CSP, an empty one, and one whose every entry is refused all get the default.
    assert_eq!(apps::content_security_policy(None), Csp { policy: DEFAULT_CSP.into(), dropped: vec![] });
    assert_eq!(build(json!({})).policy, DEFAULT_CSP);
    assert_eq!(build(json!({"connectDomains": [], "resourceDomains": [], "frameDomains": [], "baseUriDomains": []})).policy, DEFAULT_CSP);
    let refused = build(json!({"connectDomains": ["*"], "resourceDomains": ["'unsafe-eval'"], "frameDomains": ["data:"], "baseUriDomains": ["javascript:"]}));
    assert_eq!((refused.policy.as_str(), refused.dropped.len()), (DEFAULT_CSP, 4));
}

#[test]
fn the_default_is_never_looser_than_a_declared_policy() {
    let default = directives(DEFAULT_CSP);
    let declared = [
        json!({"connectDomains": ["https://api.example"]}),
        json!({"resourceDomains": ["https://cdn.example"]}),
        json!({"frameDomains": ["https://player.example"]}),
        json!({"baseUriDomains": ["https://base.example"]}),
        json!({"connectDomains": ["wss://rt.example"], "resourceDomains": ["https://*.cdn.example"], "frameDomains": ["https://v.example"], "baseUriDomains": ["https://b.example"]}),
    ];
    let names = ["default-src", "script-src", "style-src", "img-src", "media-src", "font-src", "connect-src", "frame-src", "object-src", "worker-src", "manifest-src", "base-uri", "form-action"];
    for v in declared {
        let built = build(v.clone());
        let d = directives(&built.policy);
        for name in names {
            let theirs = sources(&d, name).unwrap_or_default();
            for s in sources(&default, name).unwrap_or_default() {
                // `'none'` allows nothing, so it is below any list.
                assert!(s == "'none'" || theirs.contains(s), "{v}: the default allows {s} for {name}, the declared policy does not: {}", built.policy);
            }
        }
    }
}

#[test]
fn declared_domains_map_to_their_directives() {
    let built = build(json!({"connectDomains": ["https://api.example", "wss://rt.example"], "resourceDomains": ["https://cdn.example/"], "frameDomains": ["https://v.example"], "baseUriDomains": ["https://b.example"]}));
    assert_eq!(
        built.policy,
        "default-src 'none'; script-src 'self' 'unsafe-inline' https://cdn.example; style-src 'self' 'unsafe-inline' https://cdn.example; connect-src 'self' https://api.example wss://rt.example; img-src 'self' data: https://cdn.example; font-src 'self' https://cdn.example; media-src 'self' data: https://cdn.example; frame-src https://v.example; object-src 'none'; base-uri https://b.example; form-action 'none'"
    );
    assert!(built.dropped.is_empty());
}

type Check = fn(&Value, &Options) -> Report;

macro_rules! check {
    ($($t:ident)::+) => {
        (|v: &Value, o: &Options| validate::validate_json::<$($t)::+>(v, o)) as Check
    };
}

fn rules(r: &Report) -> Vec<(&'static str, &str, Severity)> {
    r.violations.iter().map(|v| (v.rule, v.pointer.as_str(), v.severity)).collect()
}

#[test]
fn csp_origins_are_checked_on_every_message_that_carries_them() {
    let bad = json!({"resourceDomains": ["https://cdn.example", "https://a.com; connect-src *"]});
    let good = json!({"resourceDomains": ["https://cdn.example"]});
    let ui = |csp: &Value| json!({"ui": {"csp": csp}});
    let o = Options::apps();
    // (carrier, its check, the carrier around a CSP object, the pointer of the bad entry)
    type Carrier<'a> = Box<dyn Fn(&Value) -> Value + 'a>;
    let cases: Vec<(&str, Check, Carrier<'_>, &str)> = vec![
        ("2025-11-25 Resource", check!(v4::Resource), Box::new(|c: &Value| json!({"uri": "ui://w/v", "name": "v", "mimeType": apps::MIME_TYPE, "_meta": ui(c)})), "/_meta/ui/csp/resourceDomains/1"),
        ("2025-11-25 ResourceTemplate", check!(v4::ResourceTemplate), Box::new(|c: &Value| json!({"uriTemplate": "ui://w/{id}", "name": "v", "mimeType": apps::MIME_TYPE, "_meta": ui(c)})), "/_meta/ui/csp/resourceDomains/1"),
        ("2025-11-25 BlobResourceContents", check!(v4::BlobResourceContents), Box::new(|c: &Value| json!({"uri": "ui://w/v", "mimeType": apps::MIME_TYPE, "blob": "PGh0bWw+", "_meta": ui(c)})), "/_meta/ui/csp/resourceDomains/1"),
        ("2026-07-28 ReadResourceResult", check!(v6::ReadResourceResult), Box::new(|c: &Value| json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "contents": [{"uri": "ui://w/v", "mimeType": apps::MIME_TYPE, "text": "x", "_meta": ui(c)}]})), "/contents/0/_meta/ui/csp/resourceDomains/1"),
        ("2024-11-05 ListResourcesResult", check!(v1::ListResourcesResult), Box::new(|c: &Value| json!({"resources": [{"uri": "ui://w/v", "name": "v", "mimeType": apps::MIME_TYPE, "_meta": ui(c)}]})), "/resources/0/_meta/ui/csp/resourceDomains/1"),
        ("ui/notifications/sandbox-resource-ready", check!(mcp_spec_types::apps::McpUiSandboxResourceReadyNotification), Box::new(|c: &Value| json!({"method": "ui/notifications/sandbox-resource-ready", "params": {"html": "<html></html>", "csp": c}})), "/params/csp/resourceDomains/1"),
        ("McpUiHostCapabilities", check!(mcp_spec_types::apps::McpUiHostCapabilities), Box::new(|c: &Value| json!({"sandbox": {"csp": c}})), "/sandbox/csp/resourceDomains/1"),
    ];
    let mut tally = Tally::default();
    for (name, check, message, pointer) in cases {
        let accepted = check(&message(&good), &o);
        tally.check(if accepted.violations.is_empty() { Ok(()) } else { Err(format!("{name}: {:?}", accepted.violations)) });
        let rejected = check(&message(&bad), &o);
        tally.check(if rules(&rejected) == [("apps.csp-origin", pointer, Severity::Error)] { Ok(()) } else { Err(format!("{name}: {:?}", rejected.violations)) });
    }
    // A tool may not carry a CSP at all (`csp?: never` on `McpUiToolMeta`).
    let tool = json!({"name": "t", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "ui://w/v", "csp": good}}});
    let r = validate::validate_json::<v4::Tool>(&tool, &o);
    tally.check(if rules(&r) == [("never", "/_meta/ui/csp", Severity::Error)] { Ok(()) } else { Err(format!("Tool: {:?}", r.violations)) });
    tally.finish("CSP carriers");
}

#[test]
fn the_client_ui_capability_is_checked() {
    let o = Options::apps();
    let caps = |ui: Value| json!({"extensions": {"io.modelcontextprotocol/ui": ui}});
    let init = |c: Value| json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": c, "clientInfo": {"name": "c", "version": "1"}}});
    for check in [check!(v4::ClientCapabilities), check!(v6::ClientCapabilities)] {
        let check = |v: &Value| check(v, &o);
        assert!(rules(&check(&caps(json!({"mimeTypes": [apps::MIME_TYPE]})))).is_empty());
        assert_eq!(rules(&check(&caps(json!({})))), [("apps.client-capability", "/extensions/io.modelcontextprotocol~1ui", Severity::Error)]);
        assert_eq!(rules(&check(&caps(json!({"mimeTypes": ["text/html"]})))), [("apps.client-capability", "/extensions/io.modelcontextprotocol~1ui/mimeTypes", Severity::Warning)]);
        assert_eq!(rules(&check(&caps(json!({"mimeTypes": "text/html;profile=mcp-app"})))), [("type", "/extensions/io.modelcontextprotocol~1ui/mimeTypes", Severity::Error)]);
        assert_eq!(rules(&check(&caps(json!({"mimeTypes": [7]})))), [("type", "/extensions/io.modelcontextprotocol~1ui/mimeTypes/0", Severity::Error)]);
        let report = check(&caps(json!(["text/html;profile=mcp-app"])));
        let not_object = rules(&report);
        assert!(not_object.contains(&("apps.client-capability", "/extensions/io.modelcontextprotocol~1ui", Severity::Error)), "{not_object:?}");
        // Other extensions and clients without the extension are not this rule's business.
        assert!(rules(&check(&json!({"extensions": {"com.example/x": {}}}))).is_empty());
    }
    // Inside `initialize`, where clients send it.
    let r = validate::validate_json::<v4::InitializeRequest>(&init(caps(json!({}))), &o);
    assert_eq!(rules(&r), [("apps.client-capability", "/params/capabilities/extensions/io.modelcontextprotocol~1ui", Severity::Error)]);
    // Only with the MCP Apps rules on.
    assert!(rules(&validate::validate_json::<v4::InitializeRequest>(&init(caps(json!({}))), &Options::default())).is_empty());
    // The typed accessor agrees.
    let typed: v4::ClientCapabilities = serde_json::from_value(caps(json!({"mimeTypes": [apps::MIME_TYPE]}))).unwrap();
    assert_eq!(apps::client_ui_capability(&typed).unwrap().unwrap().mime_types.as_deref(), Some(&[apps::MIME_TYPE.to_string()][..]));
    let typed: v6::ClientCapabilities = serde_json::from_value(caps(json!({"mimeTypes": ["text/html"]}))).unwrap();
    assert!(!apps::client_supports_apps(&typed));
}

fn tools<T: serde::de::DeserializeOwned>() -> Vec<T> {
    serde_json::from_value(json!([
        {"name": "both", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "ui://w/both"}}},
        {"name": "app-only", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["app"]}}},
        {"name": "model", "inputSchema": {"type": "object"}, "_meta": {"ui": {"visibility": ["model"]}, "ui/resourceUri": "ui://w/old"}},
        {"name": "plain", "inputSchema": {"type": "object"}},
    ]))
    .unwrap()
}

fn visible<T: AppTool>(tools: &[T], name: impl Fn(&T) -> &str) -> Vec<String> {
    apps::model_visible_tools(tools).into_iter().map(|t| name(t).to_string()).collect()
}

#[test]
fn apps_helpers_work_on_every_version() {
    let want = ["both", "model", "plain"];
    // 2024-11-05 has no `_meta` on tools: it is kept among the unknown keys.
    let t1: Vec<v1::Tool> = tools();
    assert_eq!(visible(&t1, |t| &t.name), want);
    assert_eq!(t1[0].ui_resource_uri(), Some("ui://w/both"));
    assert_eq!(t1[2].ui_resource_uri(), Some("ui://w/old"));
    let t3: Vec<v3::Tool> = tools();
    assert_eq!(visible(&t3, |t| &t.name), want);
    let t4: Vec<v4::Tool> = tools();
    assert_eq!(visible(&t4, |t| &t.name), want);
    let t6: Vec<v6::Tool> = tools();
    assert_eq!(visible(&t6, |t| &t.name), want);
    assert_eq!(t6[1].visibility(), apps::Visibility { model: false, app: true });
    assert_eq!(t6[3].ui().map(Result::unwrap), None);
    assert_eq!(t6[0].ui().unwrap().unwrap().resource_uri.as_deref(), Some("ui://w/both"));
}

#[test]
fn base_uri_stays_none_unless_base_domains_are_declared() {
    // Issue 27: any declared domain used to relax `base-uri` to `'self'`.
    for v in [json!({"connectDomains": ["https://api.example"]}), json!({"resourceDomains": ["https://cdn.example"]}), json!({"frameDomains": ["https://v.example"]})] {
        let built = build(v.clone());
        assert_eq!(sources(&directives(&built.policy), "base-uri").unwrap(), ["'none'"], "{v}: {}", built.policy);
    }
    let built = build(json!({"baseUriDomains": ["https://b.example"]}));
    assert_eq!(sources(&directives(&built.policy), "base-uri").unwrap(), ["https://b.example"]);
}

#[test]
fn domain_lists_are_capped() {
    // Issue 27: 3,000 domains made a 385 KB header, which stops the page loading.
    let many: Vec<String> = (0..3000).map(|i| format!("https://cdn{i}.example-with-a-long-name.com")).collect();
    let built = build(json!({"connectDomains": ["https://api.example", "https://api.example/"], "resourceDomains": many, "frameDomains": ["https://v.example"]}));
    assert!(built.policy.len() <= apps::CSP_MAX_POLICY_BYTES, "{} bytes", built.policy.len());
    let d = directives(&built.policy);
    // Connect domains come first, then resources up to the caps; the frame domain still fits only if room is left.
    assert_eq!(sources(&d, "connect-src").unwrap(), ["'self'", "https://api.example"]);
    let kept = sources(&d, "script-src").unwrap().len() - 2;
    assert!(kept > 0 && kept <= apps::CSP_MAX_ORIGINS, "{kept}");
    assert_eq!(sources(&d, "script-src").unwrap()[2], "https://cdn0.example-with-a-long-name.com");
    // Every entry is accounted for: kept, or dropped with a reason under `apps.csp-limit`.
    let resources_dropped = built.dropped.iter().filter(|x| x.field == "resourceDomains").count();
    assert_eq!(kept + resources_dropped, 3000);
    assert!(built.dropped.iter().all(|x| x.rule == "apps.csp-limit"), "{:?}", &built.dropped[..2]);
    assert_eq!(built.dropped[0].to_string(), "connectDomains/1 \"https://api.example/\" dropped [apps.csp-limit]: a repeat of an earlier entry");
    // A list within the count cap whose origins are long is cut by length instead.
    let long: Vec<String> = (0..60).map(|i| format!("https://{}{i}.example", "a".repeat(60))).collect();
    let built = build(json!({"resourceDomains": long}));
    assert!(built.policy.len() <= apps::CSP_MAX_POLICY_BYTES, "{} bytes", built.policy.len());
    assert!(built.dropped.iter().any(|x| x.reason.contains("8192 bytes")), "{:?}", built.dropped.len());
    // The check warns about the same lists.
    let many: Vec<String> = (0..100).map(|i| format!("https://cdn{i}.example")).collect();
    let contents = json!({"uri": "ui://w/v", "mimeType": apps::MIME_TYPE, "text": "x", "_meta": {"ui": {"csp": {"resourceDomains": many}}}});
    let r = validate::validate_json::<v4::TextResourceContents>(&contents, &Options::apps());
    assert_eq!(rules(&r), [("apps.csp-limit", "/_meta/ui/csp/resourceDomains", Severity::Warning)]);
}
