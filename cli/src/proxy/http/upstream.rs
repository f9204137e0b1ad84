//! Where a request goes: the upstream URL's base, the headers that pass, and the 2024-11-05
//! `endpoint` event rewritten so the client keeps posting through the proxy.

use hyper::header::{HeaderMap, HeaderName, HeaderValue, CONNECTION, HOST};
use hyper::Uri;
use mcp_spec_types::validate::formats;

/// The upstream (`--upstream URL`): `http` or `https`, its authority and its base path (the URL's
/// path up to its last `/`; a request for `/P` goes to `BASE` + `P`), and its query, which goes on
/// every request before the request's own: hosted servers take their key there (`?api_key=`), and
/// the client, which only knows the proxy's address, cannot send it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    pub https: bool,
    pub authority: String,
    pub base: String,
    pub query: Option<String>,
}

impl Upstream {
    pub fn parse(url: &str) -> Result<Upstream, String> {
        let uri: Uri = url.parse().map_err(|e| format!("--upstream {url}: not a URL ({e})"))?;
        let https = match uri.scheme_str() {
            Some("http") => false,
            Some("https") => true,
            _ => return Err(format!("--upstream {url}: the URL must start with http:// or https://")),
        };
        let Some(authority) = uri.authority() else { return Err(format!("--upstream {url}: no host")) };
        if authority.as_str().contains('@') {
            return Err(format!("--upstream {url}: credentials in the URL are not supported (the host sends its own `Authorization`)"));
        }
        let path = uri.path();
        let base = path[..path.rfind('/').map_or(0, |i| i + 1)].to_string();
        let base = if base.is_empty() { "/".to_string() } else { base };
        let query = uri.query().filter(|q| !q.is_empty()).map(str::to_string);
        Ok(Upstream { https, authority: authority.as_str().to_string(), base, query })
    }

    fn origin(&self) -> String {
        format!("{}://{}", if self.https { "https" } else { "http" }, self.authority)
    }

    /// The upstream URL of a request's path and query.
    pub fn map(&self, path_and_query: &str) -> Result<Uri, String> {
        let rest = path_and_query.strip_prefix('/').unwrap_or(path_and_query);
        // A fragment never goes to a server; left in, it would swallow the query after it (the upstream's key).
        let rest = rest.split('#').next().unwrap_or_default();
        let (path, query) = match rest.split_once('?') {
            Some((p, q)) => (p, Some(q).filter(|q| !q.is_empty())),
            None => (rest, None),
        };
        let query = match (&self.query, query) {
            (Some(own), Some(q)) => format!("?{own}&{q}"),
            (Some(own), None) => format!("?{own}"),
            (None, Some(q)) => format!("?{q}"),
            (None, None) => String::new(),
        };
        let url = format!("{}{}{path}{query}", self.origin(), self.base);
        url.parse().map_err(|e| format!("{url}: {e}"))
    }

    /// The path of the proxy that maps to `path` upstream, if `path` is under the base.
    fn unmap<'p>(&self, path: &'p str) -> Option<&'p str> {
        path.strip_prefix(&self.base[..self.base.len() - 1]).filter(|rest| rest.starts_with('/'))
    }

    /// The `endpoint` event's data as the client must see it, when it has to change: an absolute
    /// URL at the upstream becomes the same place at the proxy (`proxy_origin`, from the request's
    /// `Host`), and an absolute path under a base other than `/` loses the base. A relative URL, and
    /// one at another host, stay as they are.
    pub fn endpoint(&self, data: &str, proxy_origin: &str) -> Option<String> {
        let origin = self.origin();
        let at_upstream = data.get(..origin.len()).filter(|head| head.eq_ignore_ascii_case(&origin)).map(|_| &data[origin.len()..]);
        if let Some(rest) = at_upstream {
            if rest.is_empty() || rest.starts_with(['/', '?', '#']) {
                let path = if rest.starts_with('/') { self.unmap(rest).unwrap_or(rest) } else { rest };
                return Some(format!("{proxy_origin}{path}"));
            }
            return None;
        }
        if data.starts_with('/') && !data.starts_with("//") && self.base != "/" {
            return self.unmap(data).map(str::to_string);
        }
        None
    }
}

/// Whether a query parameter's name looks like it holds a secret (`api_key`, `access_token`, ...).
fn secret_name(name: &str) -> bool {
    let n: String = name.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
    const PARTS: [&str; 9] = ["key", "token", "secret", "passw", "pwd", "auth", "credential", "signature", "session"];
    const WHOLE: [&str; 4] = ["sig", "code", "pass", "jwt"];
    // `sessionId` is the 2024-11-05 transport's routing, not a credential of the user's.
    n != "sessionid" && (PARTS.iter().any(|p| n.contains(p)) || WHOLE.contains(&n.as_str()))
}

/// A query with the values of secret-looking parameters replaced by `REDACTED` (the names, the
/// other values and the order kept), as the recording and stderr show it.
pub fn redact_query(query: &str) -> String {
    query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, value)) if !value.is_empty() && secret_name(&percent_decoded(name)) => format!("{name}=REDACTED"),
            _ => pair.to_string(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A query name with its `%XX` escapes and `+` decoded (bytes that are not UTF-8 lossily).
fn percent_decoded(s: &str) -> String {
    // `+` is a space in a query; an escaped one (`%2B`) stays `+`, as it is decoded after.
    formats::percent_decode_lossy(&s.replace('+', " "))
}

/// Hop-by-hop headers (RFC 9110, 7.6.1): they describe one connection, so they stop at the proxy.
const HOP_BY_HOP: [&str; 8] = ["connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding"];

/// Drops the hop-by-hop headers, and those `Connection` names. `upgrade` goes too: the proxy
/// forwards no protocol switch.
pub fn strip_hop_by_hop(h: &mut HeaderMap) {
    let named: Vec<HeaderName> =
        h.get_all(CONNECTION).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).filter_map(|n| HeaderName::from_bytes(n.trim().as_bytes()).ok()).collect();
    for n in named {
        h.remove(n);
    }
    for n in HOP_BY_HOP.iter().chain(&["upgrade"]) {
        h.remove(*n);
    }
}

/// The request headers as they go upstream: hop-by-hop ones dropped, `Host` the upstream's.
pub fn upstream_request_headers(h: &mut HeaderMap, up: &Upstream) {
    strip_hop_by_hop(h);
    if let Ok(v) = HeaderValue::from_str(&up.authority) {
        h.insert(HOST, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_map_under_the_base() {
        let up = Upstream::parse("https://example.test/mcp").unwrap();
        assert_eq!((up.https, up.base.as_str()), (true, "/"));
        assert_eq!(up.map("/mcp?x=1").unwrap().to_string(), "https://example.test/mcp?x=1");
        let up = Upstream::parse("http://127.0.0.1:9/api/v1/mcp").unwrap();
        assert_eq!(up.base, "/api/v1/");
        assert_eq!(up.map("/mcp").unwrap().to_string(), "http://127.0.0.1:9/api/v1/mcp");
        assert_eq!(up.map("/").unwrap().to_string(), "http://127.0.0.1:9/api/v1/");
        assert_eq!(Upstream::parse("http://h:1").unwrap().base, "/");
        // The upstream's own query goes first on every request.
        let up = Upstream::parse("https://example.test/mcp?api_key=k&profile=p").unwrap();
        assert_eq!(up.map("/mcp").unwrap().to_string(), "https://example.test/mcp?api_key=k&profile=p");
        assert_eq!(up.map("/messages?sessionId=a").unwrap().to_string(), "https://example.test/messages?api_key=k&profile=p&sessionId=a");
        assert_eq!(Upstream::parse("https://example.test/mcp?").unwrap().map("/mcp?").unwrap().to_string(), "https://example.test/mcp");
        // Found by the proxy_http fuzz target: a `#` in the target hid the upstream's query.
        assert_eq!(up.map("/m#p?x=1").unwrap().to_string(), "https://example.test/m?api_key=k&profile=p");
        for bad in ["ftp://h/", "/mcp", "http://u:p@h/mcp", "not a url"] {
            assert!(Upstream::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn endpoints_are_rewritten_only_when_they_point_at_the_upstream() {
        let up = Upstream::parse("http://127.0.0.1:9/sse").unwrap();
        let proxy = "http://127.0.0.1:8";
        assert_eq!(up.endpoint("http://127.0.0.1:9/messages?sessionId=a", proxy).as_deref(), Some("http://127.0.0.1:8/messages?sessionId=a"));
        assert_eq!(up.endpoint("HTTP://127.0.0.1:9/m", proxy).as_deref(), Some("http://127.0.0.1:8/m"));
        for same in ["/messages?sessionId=a", "messages?s=1", "http://other:9/m", "http://127.0.0.1:90/m"] {
            assert_eq!(up.endpoint(same, proxy), None, "{same}");
        }
        let up = Upstream::parse("https://example.test/api/sse").unwrap();
        assert_eq!(up.endpoint("/api/messages?s=1", proxy).as_deref(), Some("/messages?s=1"));
        assert_eq!(up.endpoint("https://example.test/api/messages?s=1", proxy).as_deref(), Some("http://127.0.0.1:8/messages?s=1"));
        assert_eq!(up.endpoint("/elsewhere", proxy), None);
    }

    #[test]
    fn secret_looking_query_values_are_redacted() {
        assert_eq!(
            redact_query("api_key=abc&sessionId=s1&access_token=t&x=1&Api%2DKey=z&sig=q&flag&token="),
            "api_key=REDACTED&sessionId=s1&access_token=REDACTED&x=1&Api%2DKey=REDACTED&sig=REDACTED&flag&token="
        );
        assert_eq!(redact_query("page=2&cursor=abc"), "page=2&cursor=abc");
    }

    #[test]
    fn hop_by_hop_headers_stop_here() {
        let mut h = HeaderMap::new();
        for (k, v) in [
            ("connection", "keep-alive, x-private"),
            ("x-private", "1"),
            ("keep-alive", "5"),
            ("te", "trailers"),
            ("accept", "text/event-stream"),
            ("host", "127.0.0.1:8"),
            ("upgrade", "h2c"),
        ] {
            h.append(HeaderName::from_static(k), HeaderValue::from_static(v));
        }
        upstream_request_headers(&mut h, &Upstream::parse("https://example.test/mcp").unwrap());
        let mut names: Vec<&str> = h.keys().map(|k| k.as_str()).collect();
        names.sort();
        assert_eq!(names, ["accept", "host"]);
        assert_eq!(h["host"], "example.test");
    }
}
