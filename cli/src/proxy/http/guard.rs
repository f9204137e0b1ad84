//! Who may use the proxy (and the bridge over HTTP): the `Host` and `Origin` checks against DNS
//! rebinding. A page at `http://attacker.example:PORT` whose name the attacker re-points at
//! 127.0.0.1 reaches the proxy with that name in `Host` and `Origin`; to the browser the proxy is
//! the server, and the transports page (Streamable HTTP and HTTP+SSE, security warning) says
//! "Servers MUST validate the `Origin` header on all incoming connections to prevent DNS
//! rebinding attacks", and from 2025-11-25 on "If the `Origin` header is present and invalid,
//! servers MUST respond with HTTP 403 Forbidden". `Host` is checked too: a rebound page's
//! same-origin requests may carry no `Origin`, never the attacker's name in `Host`.
//!
//! Allowed by default: the loopback names (`localhost`, 127.0.0.0/8, `[::1]`) and the listen
//! address itself; `--allow-host` and `--allow-origin` add more (`*`: any). In `Origin` they
//! must come with the listen port (a page at another local port is another site); in `Host` any
//! port passes, as a browser only sends a name the page's URL holds, never the attacker's for
//! these, and tunnels and relays (`ssh -L`) pass the port they listen on. A request without
//! `Origin` (not from a browser) passes the `Origin` check.

use std::net::{IpAddr, SocketAddr};

/// Why a request is refused: its HTTP status and a reason for the body and the recording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub why: String,
}

/// The allowed hosts and origins of one listening socket.
#[derive(Debug, Clone)]
pub struct Guard {
    listen: SocketAddr,
    /// `--allow-host` values, lowercased: `NAME` (any port) or `NAME:PORT`; `*` allows any.
    hosts: Vec<String>,
    /// `--allow-origin` values, lowercased, without a trailing `/`; `*` allows any.
    origins: Vec<String>,
}

/// What a request shows of where it is meant to go and where it comes from.
#[derive(Debug, Default, Clone, Copy)]
pub struct Seen<'a> {
    /// HTTP/1.1 (a `Host` is required) rather than HTTP/1.0.
    pub http11: bool,
    /// The `Host` values (more than one is refused).
    pub hosts: &'a [&'a [u8]],
    /// The request target's authority, when it was sent in absolute form.
    pub authority: Option<&'a str>,
    /// The `Origin` values.
    pub origins: &'a [&'a [u8]],
}

/// `NAME[:PORT]` (`[V6]` in brackets) split, the name lowercased without a trailing dot.
pub fn split_host(host: &str) -> Option<(String, Option<u16>)> {
    let (name, port) = if let Some(rest) = host.strip_prefix('[') {
        let (v6, after) = rest.split_once(']')?;
        (format!("[{v6}]"), after)
    } else {
        match host.rsplit_once(':') {
            Some((n, _)) => (n.to_string(), &host[n.len()..]),
            None => (host.to_string(), ""),
        }
    };
    let port = match port {
        "" => None,
        p => Some(p.strip_prefix(':')?.parse::<u16>().ok()?),
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    if name.is_empty() || name.contains(['/', '@', ' ', '\\']) {
        return None;
    }
    Some((name, port))
}

/// The IP address a host name spells, if it is one (`[::1]` in brackets).
fn ip_of(name: &str) -> Option<IpAddr> {
    let bare = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(name);
    bare.parse().ok()
}

impl Guard {
    pub fn new(listen: SocketAddr, allow_hosts: &[String], allow_origins: &[String]) -> Guard {
        let hosts = allow_hosts.iter().map(|h| h.trim().trim_end_matches('.').to_ascii_lowercase()).collect();
        let origins = allow_origins.iter().map(|o| o.trim().trim_end_matches('/').to_ascii_lowercase()).collect();
        Guard { listen, hosts, origins }
    }

    /// Whether `name:port` is the proxy as a browser may name it (`any_port`: in `Host`).
    fn host_allowed(&self, name: &str, port: u16, any_port: bool) -> bool {
        if self.hosts.iter().any(|h| h == "*" || *h == name || *h == format!("{name}:{port}")) {
            return true;
        }
        if port != self.listen.port() && !any_port {
            return false;
        }
        match ip_of(name) {
            Some(ip) => ip.is_loopback() || (ip == self.listen.ip() && !ip.is_unspecified()),
            None => name == "localhost",
        }
    }

    fn check_host(&self, host: &str, what: &str) -> Result<(), Refusal> {
        let forbidden = |why: String| Refusal { status: 403, why };
        let Some((name, port)) = split_host(host) else { return Err(Refusal { status: 400, why: format!("{what} `{}` is not a host name", clip(host)) }) };
        if self.host_allowed(&name, port.unwrap_or(80), true) {
            return Ok(());
        }
        Err(forbidden(format!("{what} `{}` is not this proxy's address (a loopback name, or the listen address; --allow-host adds others): a DNS rebinding attempt?", clip(host))))
    }

    fn check_origin(&self, origin: &str) -> Result<(), Refusal> {
        let lower = origin.trim().trim_end_matches('/').to_ascii_lowercase();
        if self.origins.iter().any(|o| o == "*" || *o == lower) {
            return Ok(());
        }
        let refused = || Refusal {
            status: 403,
            why: format!("`Origin` {} is not this proxy's own (a page on another site; --allow-origin adds others): the transports page says servers MUST validate Origin and answer 403", clip(origin)),
        };
        let (default_port, rest) = match lower.split_once("://") {
            Some(("http", rest)) => (80, rest),
            Some(("https", rest)) => (443, rest),
            _ => return Err(refused()),
        };
        let (name, port) = split_host(rest).ok_or_else(refused)?;
        if self.host_allowed(&name, port.unwrap_or(default_port), false) {
            Ok(())
        } else {
            Err(refused())
        }
    }

    /// Whether a request may go on; RFC 9112, 3.2: an HTTP/1.1 request without `Host`, or with
    /// more than one, is answered 400.
    pub fn check(&self, seen: &Seen) -> Result<(), Refusal> {
        let text = |v: &[u8]| String::from_utf8_lossy(v).into_owned();
        match seen.hosts {
            [] if seen.http11 && seen.authority.is_none() => return Err(Refusal { status: 400, why: "an HTTP/1.1 request without `Host` (RFC 9112, 3.2)".into() }),
            [] => {}
            [one] => self.check_host(&text(one), "`Host`")?,
            _ => return Err(Refusal { status: 400, why: "a request with more than one `Host` (RFC 9112, 3.2)".into() }),
        }
        // An absolute-form target's authority is the one that counts (RFC 9112, 3.2.2).
        if let Some(a) = seen.authority {
            self.check_host(a, "the request target's host")?;
        }
        for o in seen.origins {
            self.check_origin(&text(o))?;
        }
        Ok(())
    }

    /// Whether the listen address is reachable from other machines (then a warning is due).
    pub fn listens_beyond_loopback(&self) -> bool {
        !self.listen.ip().is_loopback()
    }
}

/// At most 200 bytes of a value named in a reason.
fn clip(s: &str) -> String {
    let mut end = s.len().min(200);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].escape_debug().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(listen: &str, hosts: &[&str], origins: &[&str]) -> Guard {
        let own = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        Guard::new(listen.parse().unwrap(), &own(hosts), &own(origins))
    }

    fn check(g: &Guard, host: Option<&str>, origin: Option<&str>) -> Result<(), u16> {
        let hosts: Vec<&[u8]> = host.iter().map(|h| h.as_bytes()).collect();
        let origins: Vec<&[u8]> = origin.iter().map(|o| o.as_bytes()).collect();
        g.check(&Seen { http11: true, hosts: &hosts, authority: None, origins: &origins }).map_err(|r| r.status)
    }

    #[test]
    fn loopback_names_pass_and_other_sites_do_not() {
        let g = guard("127.0.0.1:8080", &[], &[]);
        for ok in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST.:8080", "[::1]:8080", "127.1.2.3:8080"] {
            assert_eq!(check(&g, Some(ok), None), Ok(()), "{ok}");
            assert_eq!(check(&g, Some(ok), Some(&format!("http://{ok}"))), Ok(()), "{ok}");
        }
        // A tunnel's port in `Host` passes; a page at another local port is another origin.
        assert_eq!(check(&g, Some("localhost:9000"), None), Ok(()));
        assert_eq!(check(&g, Some("localhost:8080"), Some("http://localhost:3000")), Err(403));
        for bad in ["attacker.example:8080", "attacker.example", "10.0.0.1:8080", "127.0.0.1:8080@evil", "[::1"] {
            assert!(check(&g, Some(bad), None).is_err(), "{bad}");
        }
        assert_eq!(check(&g, Some("127.0.0.1:8080"), Some("http://attacker.example:8080")), Err(403));
        assert_eq!(check(&g, Some("127.0.0.1:8080"), Some("null")), Err(403));
        assert_eq!(check(&g, Some("127.0.0.1:8080"), Some("https://localhost:8080")), Ok(()));
        assert_eq!(check(&g, None, None), Err(400));
        let twice: Vec<&[u8]> = vec![b"127.0.0.1:8080", b"127.0.0.1:8080"];
        assert_eq!(g.check(&Seen { http11: true, hosts: &twice, ..Seen::default() }).map_err(|r| r.status), Err(400));
        assert_eq!(g.check(&Seen { http11: false, ..Seen::default() }), Ok(()));
        assert_eq!(g.check(&Seen { http11: true, authority: Some("attacker.example:8080"), ..Seen::default() }).map_err(|r| r.status), Err(403));
    }

    #[test]
    fn the_listen_address_and_the_allowed_ones_pass() {
        let g = guard("192.168.1.5:80", &["proxy.lan", "other.lan:9"], &["https://app.example"]);
        assert!(g.listens_beyond_loopback());
        for ok in ["192.168.1.5", "192.168.1.5:80", "localhost", "proxy.lan:1234", "other.lan:9", "192.168.1.5:8080"] {
            assert_eq!(check(&g, Some(ok), None), Ok(()), "{ok}");
        }
        assert_eq!(check(&g, Some("other.lan:10"), None), Err(403));
        assert_eq!(check(&g, Some("proxy.lan"), Some("https://APP.example/")), Ok(()));
        assert_eq!(check(&g, Some("proxy.lan"), Some("https://app.example:8443")), Err(403));
        let any = guard("0.0.0.0:7", &["*"], &["*"]);
        assert_eq!(check(&any, Some("anything:1"), Some("http://x")), Ok(()));
        // The unspecified address is no name of the proxy.
        assert_eq!(check(&guard("0.0.0.0:7", &[], &[]), Some("0.0.0.0:7"), None), Err(403));
    }
}
