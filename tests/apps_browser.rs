//! The MCP Apps CSP helper's policies, enforced by a real browser: headless Chromium loads one
//! page per policy (`validate::apps::content_security_policy`) and the page tries scripts,
//! styles, images, fetch, XHR, WebSockets, frames, a `<base>` and a form against three loopback
//! origins: its own (A), a declared one (B) and an undeclared one (C). The test's own servers
//! log every request, so a resource loaded if and only if its server saw it.
//!
//! Needs `/usr/bin/chromium` (Debian's `chromium`); skipped with a message when it is missing,
//! except under `CI=true`, where that is a failure.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use mcp_spec_types::apps::McpUiResourceCsp;
use mcp_spec_types::validate::apps;
use mcp_schema_tests::chromium::{self, Browser};
use mcp_schema_tests::Tally;
use serde_json::{json, Value};


/// The policy a host sends for a resource's `_meta.ui.csp`.
fn policy(csp: Option<&McpUiResourceCsp>) -> String {
    apps::content_security_policy(csp).policy
}

/// What the page tries, as (tag, origin key, URL suffix). Origin keys: A, B, C as above; W and
/// X are `img.app.localhost` on B's and C's ports (Chromium resolves `*.localhost` to loopback);
/// V is a fourth server on the IPv6 loopback `[::1]`.
const PROBES: &[(&str, char, &str)] = &[
    ("script-A", 'A', ".js"),
    ("script-B", 'B', ".js"),
    ("script-C", 'C', ".js"),
    ("style-A", 'A', ".css"),
    ("style-B", 'B', ".css"),
    ("style-C", 'C', ".css"),
    ("img-A", 'A', ".gif"),
    ("img-B", 'B', ".gif"),
    ("img-C", 'C', ".gif"),
    ("img-W", 'W', ".gif"),
    ("img-X", 'X', ".gif"),
    ("img-V", 'V', ".gif"),
    ("fetch-A", 'A', ".txt"),
    ("fetch-B", 'B', ".txt"),
    ("fetch-C", 'C', ".txt"),
    ("xhr-B", 'B', ".txt"),
    ("xhr-C", 'C', ".txt"),
    ("ws-B", 'B', ""),
    ("ws-C", 'C', ""),
    ("frame-B", 'B', ".html"),
    ("frame-C", 'C', ".html"),
    // Reported to A when `document.baseURI` moved to the case's `<base href>` origin.
    ("base", 'A', ""),
    ("form-C", 'C', ""),
];

struct Case {
    name: &'static str,
    /// `None`: no policy at all (the control case: every probe must load).
    csp: Option<Option<Value>>,
    /// A policy written by hand instead of built (`{V}` filled in), to record what Chromium does.
    raw: Option<&'static str>,
    /// Where the page's `<base href>` points.
    base: char,
    /// Tags that must load; every other probe must be blocked.
    allowed: Vec<&'static str>,
}

const SELF_ONLY: &[&str] = &["script-A", "style-A", "img-A"];

fn cases() -> Vec<Case> {
    let all = PROBES.iter().map(|p| p.0).collect();
    vec![
        Case { name: "no policy (control)", csp: None, raw: None, base: 'C', allowed: all },
        Case { name: "no csp: DEFAULT_CSP", csp: Some(None), raw: None, base: 'C', allowed: SELF_ONLY.to_vec() },
        Case { name: "empty csp", csp: Some(Some(json!({}))), raw: None, base: 'C', allowed: SELF_ONLY.to_vec() },
        Case {
            name: "every list declares B",
            raw: None,
            csp: Some(Some(json!({"connectDomains": ["http://{B}", "ws://{B}"], "resourceDomains": ["http://{B}"], "frameDomains": ["http://{B}/"], "baseUriDomains": ["http://{B}"]}))),
            base: 'B',
            allowed: vec!["script-A", "style-A", "img-A", "fetch-A", "script-B", "style-B", "img-B", "fetch-B", "xhr-B", "ws-B", "frame-B", "base"],
        },
        Case {
            name: "injection attempts",
            raw: None,
            csp: Some(Some(json!({
                "connectDomains": ["http://{B}", "ws://{B}", "http://{C};connect-src *", "ws://{C} ws://*"],
                "resourceDomains": ["http://{B}; connect-src *", "http://{B}, http://{C}", "http://{B} http://{C}", "'unsafe-eval'", "*", "data:", "'self'", "http://{C}/;img-src *", "http:"],
                "frameDomains": ["http://{C}; frame-src *", "*", "javascript:", "blob:"],
                "baseUriDomains": ["http://{C}; base-uri *", "'self' *", "http://{C}\tbase-uri"],
            }))),
            base: 'C',
            allowed: vec!["script-A", "style-A", "img-A", "fetch-A", "fetch-B", "xhr-B", "ws-B"],
        },
        Case {
            name: "wildcard subdomain",
            raw: None,
            csp: Some(Some(json!({"resourceDomains": ["http://*.app.localhost:{b}"]}))),
            base: 'C',
            allowed: vec!["script-A", "style-A", "img-A", "img-W"],
        },
        // Issue 27: CSP has no IPv6 host source, and Chromium ignores one (the image is blocked
        // although the policy lists its origin); the builder drops a declared one.
        Case { name: "IPv6 source (hand-written policy)", csp: Some(None), raw: Some("default-src 'none'; script-src 'unsafe-inline'; img-src 'self' http://{V}; base-uri 'none'; form-action 'none'"), base: 'C', allowed: vec!["img-A"] },
        Case {
            name: "declared IPv6 origin dropped",
            raw: None,
            csp: Some(Some(json!({"resourceDomains": ["http://{V}", "http://{B}"]}))),
            base: 'C',
            allowed: vec!["script-A", "style-A", "img-A", "script-B", "style-B", "img-B"],
        },
        // Issue 27: declaring a connect domain does not let a `<base>` point at the view's own origin.
        Case {
            name: "connect domain only: base-uri stays 'none'",
            raw: None,
            csp: Some(Some(json!({"connectDomains": ["http://{B}"]}))),
            base: 'A',
            allowed: vec!["script-A", "style-A", "img-A", "fetch-A", "fetch-B", "xhr-B"],
        },
        // Issue 27: 3,000 domains made a 385 KB header and the page never loaded; the list is capped.
        Case {
            name: "3,000 resource domains: capped, the page loads",
            raw: None,
            csp: Some(Some(json!({"resourceDomains": std::iter::once("http://{B}".to_string()).chain((0..3000).map(|i| format!("https://cdn{i}.example-with-a-long-name.com"))).collect::<Vec<_>>()}))),
            base: 'C',
            allowed: vec!["script-A", "style-A", "img-A", "script-B", "style-B", "img-B"],
        },
        Case {
            name: "only refused entries: DEFAULT_CSP",
            raw: None,
            csp: Some(Some(json!({"connectDomains": ["*"], "resourceDomains": ["'unsafe-eval'", "data:", "blob:", "javascript:"], "frameDomains": ["*"], "baseUriDomains": ["*"]}))),
            base: 'C',
            allowed: SELF_ONLY.to_vec(),
        },
    ]
}

/// Every request the servers saw, as (server, path without query).
type Log = Arc<Mutex<Vec<(char, String)>>>;

struct Origins {
    a: u16,
    b: u16,
    c: u16,
    v: u16,
}

impl Origins {
    fn url(&self, key: char) -> String {
        match key {
            'A' => format!("http://127.0.0.1:{}", self.a),
            'B' => format!("http://127.0.0.1:{}", self.b),
            'C' => format!("http://127.0.0.1:{}", self.c),
            'W' => format!("http://img.app.localhost:{}", self.b),
            'X' => format!("http://img.app.localhost:{}", self.c),
            'V' => format!("http://[::1]:{}", self.v),
            _ => unreachable!(),
        }
    }

    /// `{B}`, `{C}`, `{V}`, `{b}` in a declared CSP become B's, C's and V's host:port, or B's port.
    fn fill_text(&self, s: &str) -> String {
        s.replace("{B}", &format!("127.0.0.1:{}", self.b)).replace("{C}", &format!("127.0.0.1:{}", self.c)).replace("{V}", &format!("[::1]:{}", self.v)).replace("{b}", &self.b.to_string())
    }

    fn fill(&self, v: &Value) -> Value {
        serde_json::from_str(&self.fill_text(&v.to_string())).unwrap()
    }
}

/// The server a probe's origin reaches (W and X are names for B and C).
fn server_of(key: char) -> char {
    match key {
        'W' => 'B',
        'X' => 'C',
        k => k,
    }
}

fn probe_url(o: &Origins, case: usize, tag: &str, key: char, ext: &str) -> String {
    let origin = if tag.starts_with("ws-") { o.url(key).replacen("http", "ws", 1) } else { o.url(key) };
    format!("{origin}/case/{case}/p/{tag}{ext}")
}

fn page(o: &Origins, i: usize, case: &Case) -> String {
    let url = |tag: &str| {
        let (_, key, ext) = PROBES.iter().find(|p| p.0 == tag).unwrap();
        probe_url(o, i, tag, *key, ext)
    };
    let mut head = format!("<base href=\"{}/case/{i}/base/\">\n", o.url(case.base));
    let mut body = String::new();
    for &(tag, _, _) in PROBES {
        let u = url(tag);
        match tag.split('-').next().unwrap() {
            "script" => head += &format!("<script src=\"{u}\"></script>\n"),
            "style" => head += &format!("<link rel=\"stylesheet\" href=\"{u}\">\n"),
            "img" => body += &format!("<img src=\"{u}\" width=\"1\" height=\"1\">\n"),
            "frame" => body += &format!("<iframe src=\"{u}\" width=\"20\" height=\"20\"></iframe>\n"),
            "form" => body += &format!("<form id=\"form\" action=\"{u}\" method=\"get\"></form>\n"),
            _ => {}
        }
    }
    let report = format!("{}/case/{i}/", o.url('A'));
    let base_origin = o.url(case.base);
    format!(
        r#"<!doctype html><html><head><meta charset="utf-8">
{head}</head><body>
{body}<script>
function report(what) {{ new Image().src = "{report}" + what; }}
if (document.baseURI.startsWith("{base_origin}/case/{i}/base/")) report("p/base");
for (const u of ["{fa}", "{fb}", "{fc}"]) {{ try {{ fetch(u).catch(() => {{}}); }} catch (e) {{}} }}
for (const u of ["{xb}", "{xc}"]) {{ try {{ const x = new XMLHttpRequest(); x.open("GET", u); x.send(); }} catch (e) {{}} }}
for (const u of ["{wb}", "{wc}"]) {{ try {{ new WebSocket(u); }} catch (e) {{}} }}
window.addEventListener("load", () => setTimeout(() => {{
  report("done");
  setTimeout(() => document.getElementById("form").submit(), 300);
}}, 500));
</script></body></html>"#,
        fa = url("fetch-A"),
        fb = url("fetch-B"),
        fc = url("fetch-C"),
        xb = url("xhr-B"),
        xc = url("xhr-C"),
        wb = url("ws-B"),
        wc = url("ws-C"),
    )
}

/// A 1x1 GIF, so images load rather than error.
const GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;";

/// Pages by path on A: (policy header, HTML).
type Pages = Arc<BTreeMap<String, (Option<String>, String)>>;

fn serve(listener: TcpListener, key: char, log: Log, pages: Pages) {
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (log, pages) = (log.clone(), pages.clone());
            thread::spawn(move || respond(stream, key, &log, &pages));
        }
    });
}

fn respond(mut stream: TcpStream, key: char, log: &Log, pages: &Pages) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut head = Vec::new();
    let mut buf = [0u8; 4096];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 64 * 1024 {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let head = String::from_utf8_lossy(&head);
    let Some(target) = head.lines().next().and_then(|l| l.split(' ').nth(1)) else { return };
    let path = target.split('?').next().unwrap_or(target).to_string();
    log.lock().unwrap().push((key, path.clone()));
    let (status, ty, body, csp): (&str, &str, Vec<u8>, Option<&str>) = match pages.get(&path).filter(|_| key == 'A') {
        Some((csp, html)) => ("200 OK", "text/html; charset=utf-8", html.clone().into_bytes(), csp.as_deref()),
        None if path.ends_with(".js") => ("200 OK", "text/javascript", b"// probe\n".to_vec(), None),
        None if path.ends_with(".css") => ("200 OK", "text/css", b"/* probe */\n".to_vec(), None),
        None if path.ends_with(".html") || path.contains("/p/form-") => ("200 OK", "text/html", b"<!doctype html><p>probe</p>".to_vec(), None),
        None if path.ends_with(".txt") => ("200 OK", "text/plain", b"probe".to_vec(), None),
        None if path.contains("/p/ws-") || path.ends_with("favicon.ico") => ("404 Not Found", "text/plain", Vec::new(), None),
        None => ("200 OK", "image/gif", GIF.to_vec(), None),
    };
    let mut out = format!("HTTP/1.1 {status}\r\nContent-Type: {ty}\r\nContent-Length: {}\r\nAccess-Control-Allow-Origin: *\r\nCache-Control: no-store\r\nConnection: close\r\n", body.len());
    if let Some(csp) = csp {
        out += &format!("Content-Security-Policy: {csp}\r\n");
    }
    out += "\r\n";
    let _ = stream.write_all(out.as_bytes()).and_then(|_| stream.write_all(&body));
}

fn bind() -> TcpListener {
    TcpListener::bind("127.0.0.1:0").expect("a loopback port")
}

#[test]
fn built_policies_hold_in_chromium() {
    if !chromium::available("apps browser CSP") {
        return;
    }
    let (a, b, c) = (bind(), bind(), bind());
    let v = TcpListener::bind("[::1]:0").expect("an IPv6 loopback port");
    let o = Origins { a: a.local_addr().unwrap().port(), b: b.local_addr().unwrap().port(), c: c.local_addr().unwrap().port(), v: v.local_addr().unwrap().port() };
    let cases = cases();
    let mut pages = BTreeMap::new();
    let mut index = String::from("<!doctype html><html><body>\n");
    for (i, case) in cases.iter().enumerate() {
        let header = case.csp.as_ref().map(|csp| match case.raw {
            Some(raw) => o.fill_text(raw),
            None => {
                let csp: Option<McpUiResourceCsp> = csp.as_ref().map(|v| serde_json::from_value(o.fill(v)).unwrap());
                policy(csp.as_ref())
            }
        });
        pages.insert(format!("/case/{i}/page"), (header, page(&o, i, case)));
        index += &format!("<iframe src=\"/case/{i}/page\" width=\"200\" height=\"150\"></iframe>\n");
    }
    pages.insert("/index".into(), (None, index + "</body></html>"));
    let log: Log = Arc::default();
    let pages: Pages = Arc::new(pages);
    for (listener, key) in [(a, 'A'), (b, 'B'), (c, 'C'), (v, 'V')] {
        serve(listener, key, log.clone(), pages.clone());
    }

    let browser = Browser::open("apps-browser", &format!("{}/index", o.url('A')));

    // Wait for every page's `done` (sent after its load event) and every request that must
    // arrive; then a moment more, for any that must not arrive but would come late (the form).
    let expected: Vec<(char, String)> = cases
        .iter()
        .enumerate()
        .flat_map(|(i, case)| {
            let done = ('A', format!("/case/{i}/done"));
            let allowed = PROBES.iter().filter(|p| case.allowed.contains(&p.0)).map(move |&(tag, key, ext)| (server_of(key), format!("/case/{i}/p/{tag}{ext}")));
            std::iter::once(done).chain(allowed)
        })
        .collect();
    let started = Instant::now();
    while !expected.iter().all(|e| log.lock().unwrap().contains(e)) && started.elapsed() < Duration::from_secs(60) {
        thread::sleep(Duration::from_millis(100));
    }
    thread::sleep(Duration::from_millis(1500));
    drop(browser);

    let log = log.lock().unwrap().clone();
    let mut tally = Tally::default();
    for (i, case) in cases.iter().enumerate() {
        let saw = |key: char, path: &str| log.iter().any(|(k, p)| *k == key && p == path);
        tally.check(if saw('A', &format!("/case/{i}/done")) { Ok(()) } else { Err(format!("{}: the page never finished loading", case.name)) });
        for &(tag, key, ext) in PROBES {
            let loaded = saw(server_of(key), &format!("/case/{i}/p/{tag}{ext}"));
            let want = case.allowed.contains(&tag);
            tally.check(if loaded == want {
                Ok(())
            } else {
                let mut policy = pages[&format!("/case/{i}/page")].0.clone().unwrap_or_else(|| "(none)".into());
                // A capped case's policy would be hundreds of KB on each line.
                if policy.len() > 600 {
                    policy = format!("{}… ({} bytes)", &policy[..600], policy.len());
                }
                Err(format!("{}: {tag} {} but must be {} (policy: {policy})", case.name, if loaded { "loaded" } else { "was blocked" }, if want { "allowed" } else { "blocked" }))
            });
        }
    }
    tally.finish("apps browser CSP");
}
