//! The server on a loopback port: each client a session of its own (`initialize`, then calls with its
//! `Mcp-Session-Id`) on a connection of its own, over HTTP/1.1 with keep-alive.

use std::process::Stdio;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;
use tokio::process::Command;

use crate::{check_answer, check_initialized, convert_call, initialize, Latencies, Load, Parts, INITIALIZED, PROTOCOL_VERSION};

/// One session on one connection.
struct Session {
    send: SendRequest<Full<Bytes>>,
    authority: String,
    id: Option<String>,
}

impl Session {
    async fn open(authority: &str) -> Result<Session, String> {
        let stream = TcpStream::connect(authority).await.map_err(|e| format!("{authority}: {e}"))?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let (send, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.map_err(|e| e.to_string())?;
        tokio::spawn(conn);
        let mut session = Session { send, authority: authority.to_owned(), id: None };
        let (headers, init) = session.post(initialize(0)).await?;
        let init = init.ok_or("no answer to initialize")?;
        check_initialized(&init)?;
        session.id = headers.get("mcp-session-id").and_then(|v| v.to_str().ok()).map(str::to_owned);
        session.post(INITIALIZED.to_vec()).await?;
        Ok(session)
    }

    /// POSTs one message; the answer is the JSON body, or the first `data:` event with an `id` in an
    /// event stream (which the server ends after the answer).
    async fn post(&mut self, body: Vec<u8>) -> Result<(hyper::HeaderMap, Option<serde_json::Value>), String> {
        let mut request = hyper::Request::post("/mcp")
            .header("host", &self.authority)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        if let Some(id) = &self.id {
            request = request.header("mcp-session-id", id).header("mcp-protocol-version", PROTOCOL_VERSION);
        }
        let request = request.body(Full::new(Bytes::from(body))).map_err(|e| e.to_string())?;
        self.send.ready().await.map_err(|e| e.to_string())?;
        let response = self.send.send_request(request).await.map_err(|e| e.to_string())?;
        let (parts, body) = response.into_parts();
        let body = body.collect().await.map_err(|e| e.to_string())?.to_bytes();
        if !parts.status.is_success() {
            return Err(format!("HTTP {}: {}", parts.status, String::from_utf8_lossy(&body)));
        }
        let sse = parts.headers.get("content-type").is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
        let answer = answer_in(sse, &body)?;
        Ok((parts.headers, answer))
    }

    async fn call(&mut self, id: u64) -> Result<serde_json::Value, String> {
        self.post(convert_call(id)).await?.1.ok_or(format!("no answer to call {id}"))
    }
}

/// The answer in a response body: the JSON body, or the first `data:` event with an `id` in an event
/// stream (priming events have empty data); `None` for an empty body (202 to a notification).
fn answer_in(sse: bool, body: &[u8]) -> Result<Option<serde_json::Value>, String> {
    if sse {
        let text = std::str::from_utf8(body).map_err(|e| e.to_string())?;
        let mut events = text.lines().filter_map(|l| l.strip_prefix("data:")).filter_map(|d| serde_json::from_str::<serde_json::Value>(d.trim()).ok());
        Ok(events.find(|m| m.get("id").is_some()))
    } else if body.is_empty() {
        Ok(None)
    } else {
        serde_json::from_slice(body).map(Some).map_err(|e| format!("{e}: {}", String::from_utf8_lossy(body)))
    }
}

/// A free loopback port (bound, then released for the server).
fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    Ok(listener.local_addr().map_err(|e| e.to_string())?.port())
}

pub async fn start(server: &[String], load: Load) -> Result<Parts, String> {
    let authority = format!("127.0.0.1:{}", free_port()?);
    let mut child = Command::new(&server[0]).args(&server[1..]).args(["--listen", &authority]).stdin(Stdio::null()).kill_on_drop(true).spawn().map_err(|e| format!("{}: {e}", server[0]))?;
    let pid = child.id().ok_or("no pid")?;
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(&authority).await.is_err() {
        if Instant::now() > deadline {
            return Err(format!("{} never listened on {authority}", server[0]));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut sessions = Vec::new();
    for _ in 0..load.clients {
        sessions.push(Session::open(&authority).await?);
    }
    let clients = sessions
        .into_iter()
        .map(|mut session| {
            let start = load.start.clone();
            let (warmup, calls) = (load.warmup as u64, load.calls as u64);
            tokio::spawn(async move {
                for id in 1..=warmup {
                    check_answer(id, &session.call(id).await?)?;
                }
                start.wait().await;
                let mut took = Latencies::with_capacity(calls as usize);
                for id in warmup + 1..=warmup + calls {
                    let t = Instant::now();
                    let answer = session.call(id).await?;
                    took.push(t.elapsed());
                    check_answer(id, &answer)?;
                }
                Ok(took)
            })
        })
        .collect();
    let stop = Box::new(move || {
        Box::pin(async move {
            // SIGTERM first, so a wrapper such as `perf record` can write what it has.
            let _ = Command::new("kill").arg(pid.to_string()).status().await;
            if tokio::time::timeout(Duration::from_secs(5), child.wait()).await.is_err() {
                let _ = child.kill().await;
            }
        }) as std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>
    });
    Ok(Parts { pid, clients, stop })
}

#[cfg(test)]
mod tests {
    use super::answer_in;

    #[test]
    fn answers_in_bodies() {
        let sse = b"id: 0\nretry: 3000\ndata:\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n";
        assert_eq!(answer_in(true, sse).unwrap().unwrap()["id"], 7);
        assert_eq!(answer_in(true, b"data:\n\n").unwrap(), None);
        assert_eq!(answer_in(false, br#"{"jsonrpc":"2.0","id":3,"result":{}}"#).unwrap().unwrap()["id"], 3);
        assert_eq!(answer_in(false, b"").unwrap(), None);
        assert!(answer_in(false, b"not json").is_err());
    }
}
