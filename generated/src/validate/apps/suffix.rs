//! Public suffixes under which a CSP wildcard (`https://*.co.uk`) would allow every site.
//!
//! Not the full Public Suffix List (about 10,000 rules, a crate that embeds it costs build time
//! and goes stale): single-label suffixes are refused by the origin rule already, and this covers
//! the two-label ones a wildcard is likely to name: a country's generic second level (`co.uk`,
//! `com.au`, `ne.jp`: a short generic label under a two-letter top-level domain) and the shared
//! hosting and tunnel domains where each subdomain is someone else's site. A host that needs the
//! exact list applies it on top; this check only ever drops more.

/// Generic second-level labels countries register names under.
const GENERIC: &[&str] = &["ac", "co", "com", "edu", "gob", "go", "gov", "gv", "ltd", "me", "mil", "ne", "net", "nic", "nom", "or", "org", "plc", "sch"];

/// Platforms that hand out subdomains to their users (each subdomain a different owner).
const SHARED: &[&str] = &[
    "appspot.com",
    "azurewebsites.net",
    "blogspot.com",
    "cloudfront.net",
    "firebaseapp.com",
    "fly.dev",
    "github.io",
    "gitlab.io",
    "glitch.me",
    "herokuapp.com",
    "netlify.app",
    "ngrok-free.app",
    "ngrok.io",
    "onrender.com",
    "pages.dev",
    "replit.app",
    "s3.amazonaws.com",
    "surge.sh",
    "trycloudflare.com",
    "vercel.app",
    "web.app",
    "workers.dev",
];

/// Whether `name` (lowercase labels, no wildcard) is a public suffix this module knows.
pub fn is_public_suffix(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    if SHARED.contains(&name.as_str()) {
        return true;
    }
    match name.split_once('.') {
        Some((second, top)) => !top.contains('.') && top.len() == 2 && top.bytes().all(|b| b.is_ascii_alphabetic()) && GENERIC.contains(&second),
        None => true,
    }
}
