//! Icons and links (issue 16, item 7): `data:` type agreement, active SVG content,
//! `sizes` entries, link schemes, and `icons::pick` choosing only what validation accepts.

use base64::Engine;
use mcp_spec_types::validate::icons::{self, pick};
use mcp_spec_types::validate::{self, Options, Report, Severity};
use mcp_spec_types::{v2024_11_05 as v1, v2025_11_25 as v4, v2026_07_28 as v6};
use serde_json::{json, Value};

const PNG: &[u8] = &[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13];
const JPEG: &[u8] = &[0xFF, 0xD8, 0xFF, 0xE0, 0, 16];

fn b64(mime: &str, bytes: &[u8]) -> String {
    format!("data:{mime};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// Percent-encodes every byte that is not alphanumeric, as a `data:` URI without base64.
fn pct(mime: &str, bytes: &[u8]) -> String {
    let mut s = format!("data:{mime},");
    for b in bytes {
        if b.is_ascii_alphanumeric() {
            s.push(*b as char);
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    s
}

fn icon_report(icon: Value) -> Report {
    validate::validate_json::<v6::Icon>(&icon, &Options::default())
}

fn rules(r: &Report) -> Vec<(&'static str, String)> {
    r.violations.iter().map(|v| (v.rule, v.pointer.clone())).collect()
}

fn count(r: &Report, rule: &str) -> usize {
    r.violations.iter().filter(|v| v.rule == rule).count()
}

#[test]
fn data_uri_type_mime_type_and_bytes_agree() {
    // (the URI's media type, `mimeType`, the bytes, how many `icon.content` errors)
    let cases: &[(&str, Option<&str>, &[u8], usize)] = &[
        ("image/png", None, PNG, 0),
        ("image/png", Some("image/png"), PNG, 0),
        ("image/jpg", Some("image/jpeg"), JPEG, 0),
        ("IMAGE/PNG", Some("image/png; charset=binary"), PNG, 0),
        // No media type in the URI: `mimeType` and the bytes decide.
        ("", Some("image/png"), PNG, 0),
        ("", Some("image/png"), JPEG, 1),
        ("", None, PNG, 0),
        // The URI and `mimeType` disagree, whatever the bytes.
        ("image/jpeg", Some("image/png"), PNG, 2),
        ("image/png", Some("image/jpeg"), PNG, 2),
        // Both agree, the bytes do not: one finding, not two.
        ("image/png", Some("image/png"), JPEG, 1),
        // The URI disagrees with the bytes while `mimeType` is right.
        ("image/png", Some("image/jpeg"), JPEG, 2),
        ("image/png", None, JPEG, 1),
    ];
    for (uri_type, mime, bytes, want) in cases {
        let mut icon = json!({"src": b64(uri_type, bytes)});
        if let Some(m) = mime {
            icon["mimeType"] = json!(m);
        }
        let r = icon_report(icon);
        assert_eq!(count(&r, "icon.content"), *want, "{uri_type} {mime:?}: {:?}", r.violations);
        assert!(r.violations.iter().all(|v| v.pointer == "/src"), "{:?}", r.violations);
    }
}

#[test]
fn active_svg_content_is_reported() {
    let bad: &[&str] = &[
        r#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#,
        r#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#,
        r#"<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>"#,
        r#"<svg xmlns="http://www.w3.org/2000/svg"><a href="&#106;avascript:alert(1)"><rect/></a></svg>"#,
        r#"<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><iframe/></foreignObject></svg>"#,
        r#"<svg xmlns="http://www.w3.org/2000/svg"><image href="https://tracker.example/pixel.png"/></svg>"#,
        r#"<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:url(https://e/x.svg#p)"/></svg>"#,
        r#"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY e SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&e;</svg>"#,
    ];
    for svg in bad {
        for src in [b64("image/svg+xml", svg.as_bytes()), pct("image/svg+xml", svg.as_bytes())] {
            let r = icon_report(json!({"src": src}));
            // The active finding, beside the allowlist's own (`<a>`, an element inside `foreignObject`, a DTD subset).
            assert!(rules(&r).contains(&("icon.svg-active", "/src".to_string())), "{svg}: {:?}", r.violations);
            assert!(r.violations.iter().all(|v| v.pointer == "/src" && v.severity == Severity::Error && v.rule.starts_with("icon.svg-")), "{svg}: {:?}", r.violations);
        }
    }
    // Issue 27: a `<style>` element is outside the allowlist (it was accepted before); presentation attributes say the same.
    let r = icon_report(json!({"src": b64("image/svg+xml", br#"<svg xmlns="http://www.w3.org/2000/svg"><style>.a{fill:#000}</style></svg>"#)}));
    assert_eq!(rules(&r), vec![("icon.svg-markup", "/src".to_string())]);
    let good: &[&str] = &[
        r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24"><defs><path id="p" d="M0 0h24v24H0z"/></defs><use xlink:href="#p" fill="url(#g)"/></svg>"##,
        r##"<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg xmlns="http://www.w3.org/2000/svg"><g class="a" fill="#000"/><text>onclick = javascript: in text</text></svg>"##,
    ];
    for svg in good {
        for src in [b64("image/svg+xml", svg.as_bytes()), pct("image/svg+xml;charset=utf-8", svg.as_bytes())] {
            let r = icon_report(json!({"src": src, "mimeType": "image/svg+xml"}));
            assert!(r.violations.is_empty(), "{svg}: {:?}", r.violations);
        }
    }
}

/// Issue 27, item 6: each got past the text scan of SVG icons, and Chromium runs or fetches it
/// (`tests/icons_browser.rs` shows that); the allowlist refuses them all.
const BYPASSES: &[&str] = &[
    // Markup from an internal entity.
    r#"<!DOCTYPE svg [<!ENTITY x "<script>alert(1)</script>">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>"#,
    // An `onerror` handler from an internal entity.
    r#"<!DOCTYPE svg [<!ENTITY i "<image href='x' onerror='alert(1)'/>">]><svg xmlns="http://www.w3.org/2000/svg">&i;</svg>"#,
    // `<!-->` ends a comment at once for an HTML parser (an SVG inlined into a page).
    r#"<svg xmlns="http://www.w3.org/2000/svg"><!--><script>alert(1)</script>--></svg>"#,
    r#"<svg xmlns="http://www.w3.org/2000/svg"><!---><img src=x onerror=alert(1)>--></svg>"#,
    // `javascript:` as a later item of `<animate values>`.
    r##"<svg xmlns="http://www.w3.org/2000/svg"><a><animate attributeName="href" values="#x;javascript:alert(1)"/><text y="20">x</text></a></svg>"##,
    r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a><animate attributeName="xlink:href" values="#x; &#106;avascript:alert(1)"/><text y="20">x</text></a></svg>"##,
    // A CSS-escaped `url(`.
    r#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="9" height="9" style="fill:u\72l(https://tracker.example/p)"/></svg>"#,
    r#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="9" height="9" style="fill:\75rl(https://tracker.example/p)"/></svg>"#,
];

#[test]
fn svg_bypasses_of_issue_27_are_refused() {
    for svg in BYPASSES {
        for src in [b64("image/svg+xml", svg.as_bytes()), pct("image/svg+xml", svg.as_bytes())] {
            let r = icon_report(json!({"src": src}));
            let svg_errors: Vec<_> = r.violations.iter().filter(|v| v.rule.starts_with("icon.svg-") && v.pointer == "/src" && v.severity == Severity::Error).collect();
            assert!(!svg_errors.is_empty(), "accepted: {svg}: {:?}", r.violations);
        }
    }
}

#[test]
fn svg_scan_is_bounded_on_hostile_input() {
    // Unterminated tags, quotes and references, half a megabyte of them: one finding per kind at most.
    let mut svg = String::from("<svg xmlns='http://www.w3.org/2000/svg'>");
    while svg.len() < 500 * 1024 {
        svg.push_str("<a onx=\"&#x6A;avascript:url(https://e/'<![CDATA[<!--<!ENTITY SYSTEM<?xml-stylesheet ");
    }
    let started = std::time::Instant::now();
    let r = icon_report(json!({"src": b64("image/svg+xml", svg.as_bytes())}));
    let svg = count(&r, "icon.svg-active") + count(&r, "icon.svg-markup");
    assert!((1..=6).contains(&svg), "{:?}", r.violations);
    // Generous: a quadratic scan of this input takes minutes.
    assert!(started.elapsed() < std::time::Duration::from_secs(20), "{:?}", started.elapsed());
}

#[test]
fn sizes_entries() {
    for ok in ["16x16", "any", "ANY", "1024X768", "48x96"] {
        let r = icon_report(json!({"src": "https://e/i.png", "sizes": [ok]}));
        assert!(r.violations.is_empty(), "{ok}: {:?}", r.violations);
    }
    for bad in ["", "48", "0x48", "048x48", "48x48 96x96", "-1x2", "+1x2", "axb", "x", "48x", "99999999999x1", "48×48", "any 48x48"] {
        let r = icon_report(json!({"src": "https://e/i.png", "sizes": ["any", bad]}));
        assert_eq!(rules(&r), vec![("icon.sizes", "/sizes/1".to_string())], "{bad:?}");
        // The schema: each string "should be" in WxH format or `any` (issue 27).
        assert_eq!(r.violations[0].severity, Severity::Warning, "{bad:?}");
    }
}

#[test]
fn website_url_schemes() {
    let implementation = |url: &str| json!({"name": "s", "version": "1", "websiteUrl": url});
    for ok in ["https://example.com", "http://example.com/docs", "HTTPS://example.com"] {
        let r = validate::validate_json::<v6::Implementation>(&implementation(ok), &Options::default());
        assert_eq!(count(&r, "link.scheme"), 0, "{ok}: {:?}", r.violations);
        let r = validate::validate_json::<v4::Implementation>(&implementation(ok), &Options::default());
        assert_eq!(count(&r, "link.scheme"), 0, "{ok}: {:?}", r.violations);
    }
    for bad in ["javascript:alert(1)", " java\tscript:alert(1)", "JAVASCRIPT:x", "data:text/html,<script>x</script>", "file:///etc/passwd", "vbscript:x", "mailto:a@b.c", "ftp://e/x", "/docs", "example.com"] {
        for report in [
            validate::validate_json::<v6::Implementation>(&implementation(bad), &Options::default()),
            validate::validate_json::<v4::Implementation>(&implementation(bad), &Options::default()),
        ] {
            let found: Vec<_> = report.violations.iter().filter(|v| v.rule == "link.scheme").map(|v| v.pointer.as_str()).collect();
            assert_eq!(found, vec!["/websiteUrl"], "{bad:?}");
        }
    }
    // 2024-11-05 has no `websiteUrl`: its own validator leaves it alone (the CLI warns, see cli/tests/compat_icons.rs).
    let r = validate::validate_json::<v1::Implementation>(&implementation("javascript:x"), &Options::default());
    assert_eq!(count(&r, "link.scheme"), 0);
}

#[test]
fn open_link_schemes() {
    use mcp_spec_types::apps::McpUiOpenLinkRequest;
    let request = |url: &str| json!({"jsonrpc": "2.0", "id": 1, "method": "ui/open-link", "params": {"url": url}});
    let apps = Options::apps();
    let r = validate::validate_json::<McpUiOpenLinkRequest>(&request("https://example.com/page"), &apps);
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    for bad in ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,x", "slack://open"] {
        let r = validate::validate_json::<McpUiOpenLinkRequest>(&request(bad), &apps);
        assert_eq!(rules(&r), vec![("link.scheme", "/params/url".to_string())], "{bad}");
    }
    // An MCP Apps rule: only with the option, like the others.
    let r = validate::validate_json::<McpUiOpenLinkRequest>(&request("javascript:alert(1)"), &Options::default());
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

fn icons_of(v: Value) -> Vec<v6::Icon> {
    serde_json::from_value(v).unwrap()
}

/// What validation says about one typed icon.
fn valid(icon: &v6::Icon) -> bool {
    validate::validate(icon, &Options::default()).is_valid()
}

#[test]
fn pick_never_chooses_a_rejected_icon() {
    let script_svg = b64("image/svg+xml", br#"<svg xmlns="http://www.w3.org/2000/svg" onload="x()"/>"#);
    let rejected = icons_of(json!([
        {"src": b64("image/png", JPEG), "sizes": ["any"]},
        {"src": b64("image/jpeg", PNG), "mimeType": "image/png", "sizes": ["any"]},
        {"src": script_svg, "sizes": ["any"]},
        {"src": "https://e/gif", "mimeType": "image/gif"},
        {"src": "http://e/plain.png"},
        {"src": "data:image/png;base64,@@@"},
    ]));
    for icon in &rejected {
        assert!(!valid(icon), "{}", icon.src);
        assert!(!icons::acceptable(icon), "{}", icon.src);
        assert!(pick(std::slice::from_ref(icon), 48, None).is_none(), "{}", icon.src);
    }
    // A `sizes` entry that is not `WxH` is a warning (the schema's "should"): such an icon can still be picked, last.
    let loose = icons_of(json!([{"src": "https://e/bad-size.png", "sizes": ["48"]}, {"src": "https://e/two-in-one.png", "sizes": ["48x48 96x96"]}]));
    for icon in &loose {
        assert!(icons::acceptable(icon), "{}", icon.src);
        assert!(!icons::acceptable_with(icon, &Options { strict: true, ..Options::default() }), "{}", icon.src);
    }
    // With one good icon among them, that one is chosen at every size.
    let good = icons_of(json!([{"src": "https://e/ok.png", "sizes": ["16x16"]}])).remove(0);
    for at in 0..=rejected.len() {
        let mut list = rejected.clone();
        list.insert(at, good.clone());
        for size in [1, 16, 48, 4096] {
            assert_eq!(pick(&list, size, None).map(|i| i.src.as_str()), Some("https://e/ok.png"), "at {at}, size {size}");
        }
    }
}

#[test]
fn pick_treats_missing_sizes_as_any_size() {
    let list = icons_of(json!([
        {"src": "https://e/16.png", "sizes": ["16x16"]},
        {"src": "https://e/unsized.png"},
    ]));
    for size in [16, 48, 512] {
        assert_eq!(pick(&list, size, None).unwrap().src, "https://e/unsized.png", "size {size}");
    }
    // Like `any`: ties go to the icon listed first.
    let list = icons_of(json!([{"src": "https://e/any.svg", "sizes": ["any"]}, {"src": "https://e/unsized.png"}]));
    assert_eq!(pick(&list, 48, None).unwrap().src, "https://e/any.svg");
    let list = icons_of(json!([{"src": "https://e/unsized.png"}, {"src": "https://e/any.svg", "sizes": ["any"]}]));
    assert_eq!(pick(&list, 48, None).unwrap().src, "https://e/unsized.png");
    // The theme still comes first.
    let list = icons_of(json!([{"src": "https://e/unsized.png", "theme": "light"}, {"src": "https://e/dark16.png", "sizes": ["16x16"], "theme": "dark"}]));
    assert_eq!(pick(&list, 48, Some("dark")).unwrap().src, "https://e/dark16.png");
}

#[test]
fn pick_agrees_with_validation() {
    // Every subset of a mixed list: whatever is picked validates, and nothing is
    // picked only when nothing validates.
    let all = icons_of(json!([
        {"src": "https://e/a.png", "sizes": ["32x32"]},
        {"src": b64("image/png", PNG), "mimeType": "image/png", "sizes": ["64x64"]},
        {"src": b64("image/png", JPEG), "sizes": ["any"]},
        {"src": "https://e/c.png", "sizes": ["32"]},
        {"src": "ftp://e/d.png"},
        {"src": pct("image/svg+xml", br#"<svg xmlns="http://www.w3.org/2000/svg"/>"#), "theme": "dark"},
    ]));
    for mask in 0u32..(1 << all.len()) {
        let list: Vec<v6::Icon> = all.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, x)| x.clone()).collect();
        for (size, theme) in [(16, None), (48, Some("dark")), (128, Some("light"))] {
            match pick(&list, size, theme) {
                Some(p) => assert!(valid(p), "mask {mask:b}: picked {}", p.src),
                None => assert!(!list.iter().any(valid), "mask {mask:b}: nothing picked"),
            }
        }
    }
}

#[test]
fn pick_with_options_follows_those_options() {
    let list = icons_of(json!([
        {"src": b64("image/png", PNG), "sizes": ["any"]},
        {"src": "https://e/noext", "sizes": ["16x16"]},
    ]));
    assert_eq!(pick(&list, 48, None).unwrap().src, list[0].src);
    // A 12-byte PNG is over a 4-byte limit; the https icon (a warning: unknown type) is then the choice ...
    let small = Options { icon_max_bytes: 4, ..Options::default() };
    assert_eq!(icons::pick_with(&list, 48, None, &small).unwrap().src, "https://e/noext");
    // ... unless warnings count as errors too.
    let strict = Options { icon_max_bytes: 4, strict: true, ..Options::default() };
    assert!(icons::pick_with(&list, 48, None, &strict).is_none());
}
