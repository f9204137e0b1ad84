//! SVG icons judged by a real browser (issue 27, item 6): headless Chromium loads each sample
//! three ways (an `<img>`, an `<object>` document, and inlined into an HTML page as a host that
//! renders icons inline would), clicks every link, and the test's server logs whether a script
//! ran (`/ran/...`) or an outside resource was fetched (`/ext/...`).
//!
//! Asserted: every sample the validator accepts does neither in any of the three ways; and every
//! sample marked `active` (the four bypasses of the old text scan, and plain scripts as controls)
//! does run or fetch in at least one, so the test can fail.
//!
//! Needs `/usr/bin/chromium`; skipped with a message when it is missing, except under `CI=true`.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use base64::Engine;
use mcp_schema_tests::chromium::{self, Browser};
use mcp_schema_tests::Tally;
use mcp_spec_types::v2026_07_28 as v6;
use mcp_spec_types::validate::{self, Options};
use serde_json::json;

const CONTEXTS: &[&str] = &["img", "object", "inline"];

/// (name, SVG, whether Chromium must show it active in some context). In the SVG, `RUN` is a
/// script statement that reports to the server and `EXT` an outside URL on the server.
const SAMPLES: &[(&str, &str, bool)] = &[
    // Controls: plain active content, refused before and now.
    ("script", r##"<svg xmlns="http://www.w3.org/2000/svg"><script>RUN</script></svg>"##, true),
    ("onload", r##"<svg xmlns="http://www.w3.org/2000/svg" onload="RUN"><rect width="9" height="9"/></svg>"##, true),
    ("image-ext", r##"<svg xmlns="http://www.w3.org/2000/svg"><image href="EXT" width="9" height="9"/></svg>"##, true),
    // The four bypasses (issue 27, item 6).
    ("entity-markup", r##"<!DOCTYPE svg [<!ENTITY x "<script>RUN</script>">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>"##, true),
    ("entity-handler", r##"<!DOCTYPE svg [<!ENTITY i "<image href='/missing.png' onerror=&#34;RUN&#34;/>">]><svg xmlns="http://www.w3.org/2000/svg">&i;</svg>"##, true),
    ("comment-trick", r##"<svg xmlns="http://www.w3.org/2000/svg"><!--><script>RUN</script>--></svg>"##, true),
    ("comment-trick-img", r##"<svg xmlns="http://www.w3.org/2000/svg"><!---><img src="/missing.png" onerror="RUN">--></svg>"##, true),
    ("animate-values", r##"<svg xmlns="http://www.w3.org/2000/svg"><a><animate attributeName="href" values="#x;javascript:RUN" dur="0.1s" fill="freeze"/><rect width="50" height="50"/></a></svg>"##, true),
    ("animate-values-xlink", r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a><animate attributeName="xlink:href" values="#x; &#106;avascript:RUN" dur="0.1s" fill="freeze"/><rect width="50" height="50"/></a></svg>"##, true),
    ("css-escape", r##"<svg xmlns="http://www.w3.org/2000/svg" style="background-image:u\72l(EXT)"><rect width="9" height="9" style="fill:u\72l(EXT#p)"/></svg>"##, true),
    ("css-escape-2", r##"<svg xmlns="http://www.w3.org/2000/svg" style="background-image:\75rl(EXT)"><rect width="9" height="9"/></svg>"##, true),
    // Accepted icons, some of them shaped like attacks.
    ("plain", r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M2 2h20v20H2z" fill="#345"/></svg>"##, false),
    (
        "gradient-use",
        r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24"><defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="rgb(0, 0, 255)"/></linearGradient><path id="p" d="M0 0h24v24H0z"/><clipPath id="c"><circle cx="12" cy="12" r="10"/></clipPath></defs><use xlink:href="#p" fill="url(#g)" clip-path="url(#c)"/></svg>"##,
        false,
    ),
    (
        "doctype-comments-text",
        r##"<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg xmlns="http://www.w3.org/2000/svg"><!-- <script>RUN</script> --><title>&lt;img src=x onerror=RUN&gt;</title><text y="20">&lt;script&gt;RUN&lt;/script&gt; javascript:RUN</text></svg>"##,
        false,
    ),
    (
        "inkscape",
        r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" viewBox="0 0 24 24"><sodipodi:namedview pagecolor="#fff" inkscape:href="EXT"/><metadata><rdf:RDF><dc:img src="EXT"/></rdf:RDF></metadata><g inkscape:label="Layer 1" style="fill:#000;stroke:#fff;stroke-width:2"><rect width="9" height="9"/></g></svg>"##,
        false,
    ),
    (
        "spinner",
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="4" r="2"><animateTransform attributeName="transform" type="rotate" values="0 12 12;360 12 12" dur="1s" repeatCount="indefinite"/><animate attributeName="opacity" values="1;0.2;1" dur="1s" repeatCount="indefinite"/></circle></svg>"##,
        false,
    ),
    ("raster-image", r##"<svg xmlns="http://www.w3.org/2000/svg"><image width="1" height="1" href="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"/></svg>"##, false),
    ("char-refs-in-title", r##"<svg xmlns="http://www.w3.org/2000/svg"><title>&#60;/title&#62;&#60;img src=/missing.png onerror=RUN&#62;</title><rect width="9" height="9" fill="#000" xml:space="preserve"/></svg>"##, false),
    ("filter", r##"<svg xmlns="http://www.w3.org/2000/svg"><filter id="f"><feGaussianBlur stdDeviation="1"/></filter><rect width="9" height="9" filter="url(#f)" aria-label="x" role="img"/></svg>"##, false),
    // Refused, not necessarily active: the allowlist's edges.
    ("style-element", r##"<svg xmlns="http://www.w3.org/2000/svg"><style>rect { fill: url(EXT) }</style><rect width="9" height="9"/></svg>"##, false),
    ("a-link", r##"<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:RUN"><rect width="50" height="50"/></a></svg>"##, true),
    ("set-href", r##"<svg xmlns="http://www.w3.org/2000/svg"><a href="#x"><set attributeName="href" to="javascript:RUN"/><rect width="50" height="50"/></a></svg>"##, true),
    ("foreign-object", r##"<svg xmlns="http://www.w3.org/2000/svg"><foreignObject width="9" height="9"><img xmlns="http://www.w3.org/1999/xhtml" src="/missing.png" onerror="RUN"/></foreignObject></svg>"##, true),
    ("xhtml-prefixed", r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:h="http://www.w3.org/1999/xhtml"><h:script>RUN</h:script></svg>"##, true),
    ("editor-style", r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"><title><sodipodi:namedview style="display:block;width:9px;height:9px;background-image:url(EXT)"/></title><rect width="9" height="9"/></svg>"##, false),
    ("cdata-in-title", r##"<svg xmlns="http://www.w3.org/2000/svg"><title><![CDATA[</title><img src="/missing.png" onerror="RUN">]]></title></svg>"##, false),
];

/// Attack snippets, each put inside a plain icon: whatever the validator accepts of these must be inert.
const SNIPPETS: &[&str] = &[
    r##"<use href="EXT#a"/>"##,
    r##"<rect width="9" height="9" fill="url(EXT#p)"/>"##,
    r##"<rect width="9" height="9" filter="url(EXT#f)" mask="url(EXT#m)"/>"##,
    r##"<rect width="9" height="9" clip-path="url(EXT#c)" marker-start="url(EXT#m)"/>"##,
    r##"<rect width="9" height="9" style="cursor:url(EXT),auto"/>"##,
    r##"<rect width="9" height="9" style="fill:url(&#39;EXT&#39;)"/>"##,
    r##"<rect width="9" height="9" fill="u&#114;l(EXT#p)"/>"##,
    r##"<rect width="9" height="9" style="fill:ur\l(EXT#p)"/>"##,
    r##"<rect width="9" height="9" style="--x:url(EXT);fill:var(--x)"/>"##,
    r##"<rect width="9" height="9" style="mask:image(EXT)"/>"##,
    r##"<rect width="9" height="9" style="fill:url(#a);behavior:url(EXT)"/>"##,
    r##"<filter id="f"><feImage href="EXT"/></filter><rect width="9" height="9" filter="url(#f)"/>"##,
    r##"<linearGradient id="g" href="EXT#g"/><pattern id="p" href="EXT#p"/><rect width="9" height="9" fill="url(#g)"/>"##,
    r##"<path id="p" d="M0 0h9"/><text><textPath href="EXT#p">x</textPath></text>"##,
    r##"<path id="p" d="M0 0h9"/><circle r="2"><animateMotion dur="1s"><mpath href="EXT#p"/></animateMotion></circle>"##,
    r##"<rect id="r" width="9" height="9"><set attributeName="onload" to="RUN"/><animate attributeName="onclick" values="RUN"/></rect>"##,
    r##"<rect width="9" height="9"><animate attributeName="fill" values="red;url(EXT#p)" dur="0.1s" fill="freeze"/></rect>"##,
    r##"<animate href="#r" attributeName="href" values="javascript:RUN" dur="0.1s" fill="freeze"/><rect id="r" width="9" height="9"/>"##,
    r##"<desc>&lt;img src=/missing.png onerror=RUN&gt;</desc><title>&#60;script&#62;RUN&#60;/script&#62;</title>"##,
    r##"<rect width="9" height="9" requiredExtensions="EXT" systemLanguage="en" data-x="javascript:alert" aria-label="javascript:alert"/>"##,
    r##"<iframe src="EXT"/><embed src="EXT"/><object data="EXT"/>"##,
    r##"<handler type="application/ecmascript">RUN</handler><listener event="load" handler="#h"/>"##,
    r##"<image href="data:image/svg+xml;base64,PHN2ZyB4bWxucz0naHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmcnIG9ubG9hZD0nYWxlcnQoMSknLz4=" width="9" height="9"/>"##,
    r##"<title><svg onload="RUN"/></title><desc><img src="/missing.png" onerror="RUN"/></desc>"##,
    r##"<title><g style="display:block;width:9px;height:9px;background:url(EXT)"/></title>"##,
    r##"<rect width="9" height="9" xml:base="EXT" xlink:href="javascript:RUN" xmlns:xlink="http://www.w3.org/1999/xlink"/>"##,
    r##"<x:script xmlns:x="http://www.w3.org/2000/svg">RUN</x:script>"##,
    r##"<math xmlns="http://www.w3.org/1998/Math/MathML"><mi href="javascript:RUN">x</mi></math>"##,
];

/// Every sample: the listed ones, then each snippet inside a plain icon.
fn samples() -> &'static [(String, String, bool)] {
    static ALL: std::sync::OnceLock<Vec<(String, String, bool)>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let listed = SAMPLES.iter().map(|(n, s, a)| (n.to_string(), s.to_string(), *a));
        let snippets = SNIPPETS.iter().enumerate().map(|(i, s)| (format!("snippet {i}"), format!(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 50 50">{s}<rect width="5" height="5"/></svg>"#), false));
        listed.chain(snippets).collect()
    })
}

fn fill(svg: &str, port: u16, id: usize, ctx: &str) -> String {
    svg.replace("RUN", &format!("fetch('/ran/{id}/{ctx}')")).replace("EXT", &format!("http://127.0.0.1:{port}/ext/{id}/{ctx}"))
}

fn accepted(svg: &str) -> bool {
    let src = format!("data:image/svg+xml;base64,{}", base64::engine::general_purpose::STANDARD.encode(svg));
    let icon = json!({"src": src, "mimeType": "image/svg+xml"});
    validate::validate_json::<v6::Icon>(&icon, &Options::default()).is_valid()
}

/// One page per sample and context; the page clicks every link after the animations have run.
fn page(port: u16, id: usize, ctx: &str) -> String {
    let body = match ctx {
        "img" => format!(r#"<img src="/svg/{id}/img.svg" width="50" height="50">"#),
        "object" => format!(r#"<object id="o" data="/svg/{id}/object.svg" type="image/svg+xml" width="50" height="50"></object>"#),
        _ => fill(&samples()[id].1, port, id, ctx),
    };
    format!(
        r#"<!doctype html><html><head><meta charset="utf-8"></head><body>
<div id="host">{body}</div>
<script>
function click(doc) {{ if (doc) for (const a of doc.querySelectorAll("a")) a.dispatchEvent(new MouseEvent("click", {{bubbles: true, cancelable: true}})); }}
window.addEventListener("load", () => setTimeout(() => {{
  const o = document.getElementById("o");
  try {{ click(o ? o.contentDocument : document); }} catch (e) {{}}
  setTimeout(() => {{ new Image().src = "/done/{id}/{ctx}"; }}, 700);
}}, 600));
</script></body></html>"#
    )
}

type Log = Arc<Mutex<Vec<String>>>;

fn respond(mut stream: TcpStream, port: u16, log: &Log) {
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
    let Some(path) = head.lines().next().and_then(|l| l.split(' ').nth(1)).map(str::to_string) else { return };
    log.lock().unwrap().push(path.clone());
    let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let (ty, body) = match parts.as_slice() {
        ["page", id, ctx] => ("text/html; charset=utf-8", id.parse::<usize>().ok().filter(|i| *i < samples().len()).map(|i| page(port, i, ctx)).unwrap_or_default()),
        ["svg", id, file] => {
            let ctx = file.trim_end_matches(".svg");
            ("image/svg+xml", id.parse::<usize>().ok().filter(|i| *i < samples().len()).map(|i| fill(&samples()[i].1, port, i, ctx)).unwrap_or_default())
        }
        ["index"] => {
            let frames: String = (0..samples().len()).flat_map(|i| CONTEXTS.iter().map(move |c| format!("<iframe src=\"/page/{i}/{c}\" width=\"80\" height=\"80\"></iframe>\n"))).collect();
            ("text/html", format!("<!doctype html><html><body>\n{frames}</body></html>"))
        }
        _ => ("text/plain", String::new()),
    };
    let status = if body.is_empty() { "404 Not Found" } else { "200 OK" };
    let out = format!("HTTP/1.1 {status}\r\nContent-Type: {ty}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n{body}", body.len());
    let _ = stream.write_all(out.as_bytes());
}

#[test]
fn accepted_svg_icons_run_nothing_in_chromium() {
    if !chromium::available("icons browser") {
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let port = listener.local_addr().unwrap().port();
    let log: Log = Arc::default();
    {
        let log = log.clone();
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let log = log.clone();
                thread::spawn(move || respond(stream, port, &log));
            }
        });
    }
    let browser = Browser::open("icons-browser", &format!("http://127.0.0.1:{port}/index"));
    let done = |log: &[String]| (0..samples().len()).all(|i| CONTEXTS.iter().all(|c| log.contains(&format!("/done/{i}/{c}"))));
    let started = Instant::now();
    while !done(&log.lock().unwrap()) && started.elapsed() < Duration::from_secs(60) {
        thread::sleep(Duration::from_millis(100));
    }
    thread::sleep(Duration::from_millis(1000));
    drop(browser);

    let log = log.lock().unwrap().clone();
    let mut tally = Tally::default();
    for (i, (name, svg, must_be_active)) in samples().iter().enumerate() {
        let ok = accepted(&fill(svg, port, i, "img"));
        let active: Vec<&str> = CONTEXTS.iter().copied().filter(|c| log.iter().any(|p| p.starts_with(&format!("/ran/{i}/{c}")) || p.starts_with(&format!("/ext/{i}/{c}")))).collect();
        let finished = CONTEXTS.iter().all(|c| log.contains(&format!("/done/{i}/{c}")));
        if std::env::var_os("MCP_ICONS_BROWSER_VERBOSE").is_some() {
            eprintln!("{name}: accepted {ok}, active in {active:?}");
        }
        tally.check(if finished { Ok(()) } else { Err(format!("{name}: a page never finished loading")) });
        tally.check(if ok && !active.is_empty() { Err(format!("{name}: accepted by the validator, but active in Chromium as {active:?}")) } else { Ok(()) });
        tally.check(if *must_be_active && active.is_empty() { Err(format!("{name}: expected to run or fetch in Chromium (the test's control), but did not")) } else { Ok(()) });
        tally.check(if *must_be_active && ok { Err(format!("{name}: active content accepted by the validator")) } else { Ok(()) });
    }
    tally.finish("icons browser");
}
