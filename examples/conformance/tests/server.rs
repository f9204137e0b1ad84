//! The conformance server without the suite (no Node needed): a session over raw HTTP/1.1.

#![forbid(unsafe_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStderr, Command, Stdio};

struct Server {
    child: Child,
    stderr: BufReader<ChildStderr>,
    port: u16,
}

fn start() -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_conformance-server"))
        .args(["--port", "0", "--validate"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let port = line
        .trim()
        .trim_end_matches("/mcp")
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .expect(&line);
    Server {
        child,
        stderr,
        port,
    }
}

impl Server {
    /// One request on its own connection; the whole response as text (headers, then the body as sent).
    fn http(&self, method: &str, host: &str, headers: &[(&str, &str)], body: &str) -> String {
        let mut tcp = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let mut request = format!(
            "{method} /mcp HTTP/1.1\r\nHost: {host}\r\nAccept: application/json, text/event-stream\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
            body.len()
        );
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        request.push_str(body);
        tcp.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        tcp.read_to_string(&mut response).unwrap();
        response
    }

    fn local(&self, method: &str, headers: &[(&str, &str)], body: &str) -> String {
        self.http(method, &format!("127.0.0.1:{}", self.port), headers, body)
    }

    /// Stops the server as run.sh does (SIGINT) and returns its validation summary.
    fn stop(mut self) -> (String, bool) {
        let pid = self.child.id().to_string();
        Command::new("kill").args(["-INT", &pid]).status().unwrap();
        let mut rest = String::new();
        self.stderr.read_to_string(&mut rest).unwrap();
        let status = self.child.wait().unwrap();
        (rest, status.success())
    }
}

// A failed assertion must not leave the server running.
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn header<'r>(response: &'r str, name: &str) -> Option<&'r str> {
    response
        .lines()
        .take_while(|l| !l.is_empty())
        .find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim())
        })
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#;

#[test]
fn a_session_resumes_a_stream_the_server_closed() {
    let server = start();
    let init = server.local("POST", &[], INITIALIZE);
    assert!(init.starts_with("HTTP/1.1 200"), "{init}");
    assert!(init.contains(r#""protocolVersion":"2025-11-25""#), "{init}");
    let session = header(&init, "mcp-session-id")
        .expect("a session id")
        .to_owned();
    let with_session = [("Mcp-Session-Id", session.as_str())];

    let call =
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_reconnection"}}"#;
    let first = server.local("POST", &with_session, call);
    assert_eq!(
        header(&first, "content-type"),
        Some("text/event-stream"),
        "{first}"
    );
    // The priming event (an id, a retry delay, no data), then the connection closes early.
    let priming = first.split("id: ").nth(1).and_then(|e| e.split('\n').next()).expect("an event id");
    assert!(first.contains(&format!("id: {priming}\nretry: 500\ndata: \n")), "{first}");
    assert!(!first.contains("Reconnection test completed"), "{first}");

    let resumed = server.local("GET", &[with_session[0], ("Last-Event-ID", priming)], "");
    assert!(
        resumed.contains(r#""id":2"#)
            && resumed.contains("Reconnection test completed successfully"),
        "{resumed}"
    );

    let (summary, ok) = server.stop();
    assert!(
        summary.contains("validated 2 messages, 0 findings"),
        "{summary}"
    );
    assert!(ok, "{summary}");
}

#[test]
fn requests_from_other_hosts_and_without_a_session_are_refused() {
    let server = start();
    let evil = server.http(
        "POST",
        "evil.example.com",
        &[("Origin", "http://evil.example.com")],
        INITIALIZE,
    );
    assert!(evil.starts_with("HTTP/1.1 403"), "{evil}");
    let origin = server.local("POST", &[("Origin", "http://evil.example.com")], INITIALIZE);
    assert!(origin.starts_with("HTTP/1.1 403"), "{origin}");
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    assert!(server.local("POST", &[], ping).starts_with("HTTP/1.1 400"));
    assert!(server
        .local("POST", &[("Mcp-Session-Id", "nope")], ping)
        .starts_with("HTTP/1.1 404"));
    // A request whose params do not fit its method: the id still comes back, with "invalid params".
    let init = server.local(
        "POST",
        &[],
        r#"{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}"#,
    );
    assert!(
        init.contains(r#""id":7"#) && init.contains("-32602"),
        "{init}"
    );
    let (summary, ok) = server.stop();
    assert!(ok, "{summary}");
}

#[test]
fn messages_that_do_not_read_get_the_answer_their_envelope_calls_for() {
    let server = start();
    // Not JSON-RPC 2.0: "invalid request", with the request's own id (not "invalid params").
    let old = server.local(
        "POST",
        &[],
        r#"{"jsonrpc":"1.0","id":3,"method":"tools/list"}"#,
    );
    assert!(old.starts_with("HTTP/1.1 400"), "{old}");
    assert!(old.contains(r#""id":3"#) && old.contains("-32600"), "{old}");
    // Not JSON: "parse error", without an id (2025-11-25's `JSONRPCErrorResponse` makes it
    // optional, and its validator rejects JSON-RPC's `"id": null`).
    let broken = server.local("POST", &[], "{");
    assert!(broken.starts_with("HTTP/1.1 400"), "{broken}");
    assert!(
        broken.contains("-32700") && !broken.contains(r#""id""#),
        "{broken}"
    );
    // A notification is never answered with a JSON-RPC message, even when it does not read.
    let notification = server.local(
        "POST",
        &[],
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#,
    );
    assert!(notification.starts_with("HTTP/1.1 400"), "{notification}");
    assert!(!notification.contains(r#""jsonrpc""#), "{notification}");
    let (summary, ok) = server.stop();
    assert!(ok, "{summary}");
}

#[test]
fn the_client_calls_every_tool_and_neither_side_writes_anything_invalid() {
    let server = start();
    let url = format!("http://127.0.0.1:{}/mcp", server.port);
    let client = Command::new(env!("CARGO_BIN_EXE_conformance-client"))
        .args(["--validate", &url])
        .output()
        .expect("the client runs");
    let log = String::from_utf8_lossy(&client.stderr);
    assert!(client.status.success(), "{log}");
    assert!(log.contains(" messages, 0 findings"), "{log}");
    // The form's defaults come back typed, the number with its fraction.
    assert!(
        log.contains(r#"test_elicitation_sep1034_defaults: Elicitation completed: action=accept, content={"age":30,"name":"John Doe","score":95.5,"status":"active","verified":true}"#),
        "{log}"
    );
    assert!(
        log.contains("test_sampling: LLM response: A reply from the conformance client."),
        "{log}"
    );
    assert!(
        log.contains("test_reconnection: Reconnection test completed successfully"),
        "{log}"
    );
    let (summary, ok) = server.stop();
    assert!(summary.contains(" messages, 0 findings"), "{summary}");
    assert!(ok, "{summary}");
}

/// A session whose client declared sampling, `notifications/initialized` sent: its id.
fn session(server: &Server) -> String {
    let init = INITIALIZE.replace(r#""capabilities":{}"#, r#""capabilities":{"sampling":{}}"#);
    let init = server.local("POST", &[], &init);
    let session = header(&init, "mcp-session-id")
        .expect("a session id")
        .to_owned();
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let accepted = server.local("POST", &[("Mcp-Session-Id", &session)], initialized);
    assert!(accepted.starts_with("HTTP/1.1 202"), "{accepted}");
    session
}

#[test]
fn a_request_to_the_client_goes_on_the_calling_request_s_stream_and_its_answer_comes_back() {
    let server = start();
    let session = session(&server);
    // The call's POST stays open: read its stream as it comes.
    let mut tcp = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    let body = r#"{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"test_sampling","arguments":{"prompt":"hi"}}}"#;
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         Mcp-Session-Id: {session}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(request.as_bytes()).unwrap();
    let mut stream = BufReader::new(tcp);
    let mut line = String::new();
    let asked = loop {
        line.clear();
        assert!(
            stream.read_line(&mut line).unwrap() > 0,
            "the stream ended before the server asked"
        );
        if let Some(data) = line
            .trim()
            .strip_prefix("data: ")
            .filter(|d| d.contains("sampling/createMessage"))
        {
            break serde_json::from_str::<serde_json::Value>(data).unwrap();
        }
    };
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"}});
    let accepted = server.local("POST", &[("Mcp-Session-Id", &session)], &answer.to_string());
    assert!(accepted.starts_with("HTTP/1.1 202"), "{accepted}");
    let mut rest = String::new();
    stream.read_to_string(&mut rest).unwrap();
    assert!(
        rest.contains(r#""id":"c""#) && rest.contains("LLM response: Paris"),
        "{rest}"
    );
    let (summary, ok) = server.stop();
    assert!(ok, "{summary}");
}

#[test]
fn the_session_s_log_level_decides_what_a_tool_logs_on_its_stream() {
    let server = start();
    let session = session(&server);
    let with_session = [("Mcp-Session-Id", session.as_str())];
    let call = r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"test_tool_with_logging"}}"#;
    let logged = server.local("POST", &with_session, call);
    assert_eq!(
        logged.matches("notifications/message").count(),
        3,
        "{logged}"
    );
    // The engine answers `logging/setLevel` itself, in JSON, and keeps the level.
    let set =
        r#"{"jsonrpc":"2.0","id":6,"method":"logging/setLevel","params":{"level":"warning"}}"#;
    let set = server.local("POST", &with_session, set);
    assert!(
        set.starts_with("HTTP/1.1 200") && set.contains(r#""id":6"#),
        "{set}"
    );
    let quiet = server.local(
        "POST",
        &with_session,
        &call.replace(r#""id":5"#, r#""id":7"#),
    );
    assert!(
        quiet.contains("Logging test completed") && !quiet.contains("notifications/message"),
        "{quiet}"
    );
    let (summary, ok) = server.stop();
    assert!(ok, "{summary}");
}

#[test]
fn a_long_session_keeps_only_the_latest_ended_streams() {
    let server = start();
    let init = server.local("POST", &[], INITIALIZE);
    let session = header(&init, "mcp-session-id").expect("a session id").to_owned();
    let with_session = [("Mcp-Session-Id", session.as_str())];
    for id in 2..=71 {
        let call = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"test_simple_text"}}}}"#);
        let answer = server.local("POST", &with_session, &call);
        assert!(answer.contains(&format!(r#""id":{id}"#)), "{answer}");
    }
    // 70 streams ended (numbered from 1: 0 is the session's GET stream); the 64 latest can still
    // be resumed, the first is forgotten.
    let latest = server.local("GET", &[with_session[0], ("Last-Event-ID", "70-0")], "");
    assert!(latest.starts_with("HTTP/1.1 200") && latest.contains(r#""id":71"#), "{latest}");
    let first = server.local("GET", &[with_session[0], ("Last-Event-ID", "1-0")], "");
    assert!(first.starts_with("HTTP/1.1 404"), "{first}");
}

#[test]
fn past_its_session_limit_the_server_ends_the_oldest_session() {
    let server = start();
    let ids: Vec<String> = (0..1025)
        .map(|_| header(&server.local("POST", &[], INITIALIZE), "mcp-session-id").expect("a session id").to_owned())
        .collect();
    let ping = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
    let oldest = server.local("POST", &[("Mcp-Session-Id", ids[0].as_str())], ping);
    assert!(oldest.starts_with("HTTP/1.1 404"), "{oldest}");
    let second = server.local("POST", &[("Mcp-Session-Id", ids[1].as_str())], ping);
    assert!(second.starts_with("HTTP/1.1 200"), "{second}");
}
