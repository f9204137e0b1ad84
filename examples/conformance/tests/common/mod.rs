//! A one-request-per-connection HTTP server for the client tests (no Node needed).
// Each test binary uses a part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;

/// One POST: its headers (names lowercased) and its JSON body.
pub struct Post {
    pub headers: Vec<(String, String)>,
    pub body: serde_json::Value,
}

impl Post {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

pub fn read(tcp: &TcpStream) -> Option<Post> {
    let mut reader = BufReader::new(tcp.try_clone().ok()?);
    let (mut length, mut headers) = (0, Vec::new());
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            let (name, value) = (name.trim().to_ascii_lowercase(), value.trim().to_owned());
            if name == "content-length" {
                length = value.parse().ok()?;
            }
            headers.push((name, value));
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Post {
        headers,
        body: serde_json::from_slice(&body).ok()?,
    })
}

/// Answers with `reply` as JSON, or 202 without a body.
pub fn reply(mut tcp: TcpStream, status: &str, reply: Option<serde_json::Value>) {
    let (status, body) = match reply {
        Some(r) => (status, r.to_string()),
        None => ("202 Accepted", String::new()),
    };
    let _ = write!(
        tcp,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
}
