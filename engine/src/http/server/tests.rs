//! The service called in process (no sockets): sessions, streams, cancellation, the GET stream,
//! resumption, Origin, bounds, and 2026-07-28 requests without a session.

use std::time::Duration;

use http_body_util::{BodyExt, Full};
use serde_json::{json, Value};
use tower_service::Service;

use super::*;
use crate::LogLevel;

type Response = hyper::Response<ResponseBody>;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

/// A server of two versions whose handler answers `tools/list`, logs and reports progress on
/// `tools/call` `slow` until cancelled, and asks the client to elicit on `tools/call` `ask`.
fn service(options: Options) -> McpService<impl Handler> {
    let info = ServerInfo::new("test", "0.1.0").versions(&["2025-11-25", "2026-07-28"]).capabilities(&json!({"tools": {}, "logging": {}})).unwrap();
    McpService::with_options(info, options, |request: Request, cx: RequestContext| async move {
        let name = request.params.as_ref().and_then(|p| p.get("name")).and_then(Value::as_str).unwrap_or("").to_owned();
        match (request.method.as_str(), name.as_str()) {
            ("tools/list", _) => Some(Ok(json!({"tools": []}))),
            ("tools/call", "slow") => {
                let _ = cx.log(LogLevel::Info, None, &"started");
                let _ = cx.progress(1.0, None, None);
                cx.cancelled().await;
                // Dropped: the client cancelled.
                let _ = cx.progress(2.0, None, None);
                Some(Ok(json!({"content": []})))
            }
            ("tools/call", "reconnect") => {
                cx.disconnect();
                tokio::time::sleep(Duration::from_millis(10)).await;
                Some(Ok(json!({"content": [{"type": "text", "text": "after the reconnection"}]})))
            }
            ("tools/call", "ask") => {
                let form = json!({"mode": "form", "message": "name?", "requestedSchema": {"type": "object", "properties": {}}});
                let ask: mcp_spec_types::v2025_11_25::ElicitRequest = serde_json::from_value(json!({"jsonrpc": "2.0", "id": 0, "method": "elicitation/create", "params": form})).unwrap();
                let text = match cx.request(ask).await {
                    Ok(result) => result.action.as_str().to_owned(),
                    Err(e) => e.to_string(),
                };
                Some(Ok(json!({"content": [{"type": "text", "text": text}]})))
            }
            _ => None,
        }
    })
}

fn post(body: Value, session: Option<&str>) -> hyper::Request<Full<Bytes>> {
    let mut request = hyper::Request::post("/mcp").header("accept", "application/json, text/event-stream").header("content-type", "application/json");
    if let Some(id) = session {
        request = request.header(SESSION_ID, id).header("mcp-protocol-version", "2025-11-25");
    }
    request.body(Full::new(Bytes::from(body.to_string()))).unwrap()
}

fn empty(method: Method, session: &str) -> hyper::Request<Full<Bytes>> {
    hyper::Request::builder().method(method).uri("/mcp").header("accept", "text/event-stream").header(SESSION_ID, session).body(Full::default()).unwrap()
}

async fn call(svc: &mut McpService<impl Handler>, request: hyper::Request<Full<Bytes>>) -> Response {
    svc.call(request).await.unwrap()
}

async fn json_body(response: Response) -> Value {
    serde_json::from_slice(&response.into_body().collect().await.unwrap().to_bytes()).unwrap()
}

/// The SSE events `(id, data)` of a body, until it ends or `count` are read. A body that does
/// neither within 20 s (a guard against a hang, not a timing assertion) fails the test.
async fn events(body: &mut ResponseBody, count: usize) -> Vec<(String, String)> {
    let mut text = String::new();
    let mut out = Vec::new();
    while out.len() < count {
        let next = tokio::time::timeout(Duration::from_secs(20), body.frame()).await;
        let Some(frame) = next.expect("no event and no end of the stream in 20 s") else { break };
        text.push_str(std::str::from_utf8(frame.unwrap().data_ref().unwrap()).unwrap());
        while let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            let field = |name: &str| block.lines().find_map(|l| l.strip_prefix(name)).unwrap_or("").to_owned();
            out.push((field("id: "), field("data: ")));
        }
    }
    out
}

async fn initialize(svc: &mut McpService<impl Handler>) -> String {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}}, "clientInfo": {"name": "t", "version": "1"}}});
    let response = call(svc, post(init, None)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let id = response.headers()[SESSION_ID].to_str().unwrap().to_owned();
    assert_eq!(json_body(response).await["result"]["protocolVersion"], "2025-11-25");
    let initialized = call(svc, post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), Some(&id))).await;
    assert_eq!(initialized.status(), StatusCode::ACCEPTED);
    id
}

fn call_tool(id: i64, name: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "_meta": {"progressToken": id}}})
}

#[test]
fn a_session_starts_with_initialize_and_ends_with_delete() {
    runtime().block_on(async {
        let mut svc = service(Options::default());
        let id = initialize(&mut svc).await;
        assert_eq!(svc.sessions(), 1);
        let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
        // Nothing but the answer to send: JSON.
        let response = call(&mut svc, post(list.clone(), Some(&id))).await;
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
        assert_eq!(json_body(response).await["result"], json!({"tools": []}));
        assert_eq!(call(&mut svc, post(list.clone(), None)).await.status(), StatusCode::BAD_REQUEST);
        assert_eq!(call(&mut svc, post(list.clone(), Some("nope"))).await.status(), StatusCode::NOT_FOUND);
        let mut other_version = post(list.clone(), Some(&id));
        other_version.headers_mut().insert("mcp-protocol-version", HeaderValue::from_static("1999-01-01"));
        assert_eq!(call(&mut svc, other_version).await.status(), StatusCode::BAD_REQUEST);
        assert_eq!(call(&mut svc, empty(Method::DELETE, &id)).await.status(), StatusCode::OK);
        assert_eq!(call(&mut svc, post(list, Some(&id))).await.status(), StatusCode::NOT_FOUND);
        assert_eq!(svc.sessions(), 0);
    })
}

#[test]
fn progress_and_logs_go_on_the_request_stream_and_nothing_after_a_cancel() {
    runtime().block_on(async {
        let mut svc = service(Options::default());
        let id = initialize(&mut svc).await;
        let mut body = call(&mut svc, post(call_tool(5, "slow"), Some(&id))).await.into_body();
        let got = events(&mut body, 3).await;
        let methods: Vec<Value> = got[1..].iter().map(|(_, data)| serde_json::from_str::<Value>(data).unwrap()["method"].clone()).collect();
        assert_eq!(methods, [json!("notifications/message"), json!("notifications/progress")]);
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}});
        assert_eq!(call(&mut svc, post(cancel, Some(&id))).await.status(), StatusCode::ACCEPTED);
        // The handler ends; neither its progress nor its answer is written, and the stream closes.
        let after = events(&mut body, 9).await;
        assert_eq!(after, [], "nothing after the cancellation");
    })
}

#[test]
fn the_get_stream_carries_the_session_lines_and_resumes() {
    runtime().block_on(async {
        let mut svc = service(Options::default());
        let id = initialize(&mut svc).await;
        // Before any GET: kept, and delivered when the GET comes.
        svc.for_each_session(|server| drop(server.log(LogLevel::Info, None, &"one")));
        let mut get = call(&mut svc, empty(Method::GET, &id)).await.into_body();
        let got = events(&mut get, 2).await;
        assert_eq!(serde_json::from_str::<Value>(&got[0].1).unwrap()["params"]["data"], "one");
        assert_eq!(got[1].1, "", "then a priming event");
        svc.for_each_session(|server| drop(server.log(LogLevel::Info, None, &"two")));
        let two = events(&mut get, 1).await;
        assert!(two[0].1.contains("\"two\""));
        // A new connection resumes after the first event: the priming event and "two" again.
        let mut resume = empty(Method::GET, &id);
        resume.headers_mut().insert("last-event-id", HeaderValue::from_str(&got[0].0).unwrap());
        let again = events(&mut call(&mut svc, resume).await.into_body(), 2).await;
        assert_eq!(again.iter().map(|e| e.0.clone()).collect::<Vec<_>>(), [got[1].0.clone(), two[0].0.clone()]);
        let mut unknown = empty(Method::GET, &id);
        unknown.headers_mut().insert("last-event-id", HeaderValue::from_static("99-0"));
        assert_eq!(call(&mut svc, unknown).await.status(), StatusCode::NOT_FOUND);
    })
}

#[test]
fn a_server_request_goes_on_the_stream_and_its_answer_comes_back() {
    runtime().block_on(async {
        let mut svc = service(Options::default());
        let id = initialize(&mut svc).await;
        let mut body = call(&mut svc, post(call_tool(7, "ask"), Some(&id))).await.into_body();
        let got = events(&mut body, 2).await;
        let ask: Value = serde_json::from_str(&got[1].1).unwrap();
        assert_eq!(ask["method"], "elicitation/create");
        let answer = json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "decline"}});
        assert_eq!(call(&mut svc, post(answer, Some(&id))).await.status(), StatusCode::ACCEPTED);
        let result = events(&mut body, 9).await;
        assert_eq!(result.len(), 1);
        assert_eq!(serde_json::from_str::<Value>(&result[0].1).unwrap()["result"]["content"][0]["text"], "decline");
    })
}

#[test]
fn a_foreign_origin_is_403_and_bounds_hold() {
    runtime().block_on(async {
        let options = Options { allowed_origins: vec!["https://app.example".into()], max_body: 1000, max_sessions: 2, ..Options::default() };
        let mut svc = service(options);
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let mut cases = 0;
        for (origin, status) in [("http://evil.example", StatusCode::FORBIDDEN), ("null", StatusCode::FORBIDDEN), ("http://localhost.evil.example:80", StatusCode::FORBIDDEN), ("http://localhost:6274", StatusCode::BAD_REQUEST), ("http://[::1]:1", StatusCode::BAD_REQUEST), ("https://app.example", StatusCode::BAD_REQUEST)] {
            let mut request = post(ping.clone(), None);
            request.headers_mut().insert(header::ORIGIN, HeaderValue::from_static(origin));
            // Allowed origins get on to the session check: no session, so 400.
            assert_eq!(call(&mut svc, request).await.status(), status, "{origin}");
            cases += 1;
        }
        let mut hosted = service(Options { allowed_hosts: Some(vec!["mcp.example".into()]), ..Options::default() });
        for (host, status) in [("evil.example", StatusCode::FORBIDDEN), ("evil.example:8808", StatusCode::FORBIDDEN), ("127.0.0.1:8808", StatusCode::BAD_REQUEST), ("[::1]:1", StatusCode::BAD_REQUEST), ("mcp.example", StatusCode::BAD_REQUEST)] {
            let mut request = post(ping.clone(), None);
            request.headers_mut().insert(header::HOST, HeaderValue::from_static(host));
            assert_eq!(call(&mut hosted, request).await.status(), status, "{host}");
            cases += 1;
        }
        let big = json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"pad": "x".repeat(2000)}});
        assert_eq!(call(&mut svc, post(big, None)).await.status(), StatusCode::PAYLOAD_TOO_LARGE);
        let first = initialize(&mut svc).await;
        initialize(&mut svc).await;
        initialize(&mut svc).await;
        assert_eq!(svc.sessions(), 2);
        assert_eq!(call(&mut svc, post(ping, Some(&first))).await.status(), StatusCode::NOT_FOUND, "the least recently used session ended");
        println!("{cases} origins and hosts checked, 0 failed");
    })
}

#[test]
fn a_2026_request_needs_no_session() {
    runtime().block_on(async {
        let mut svc = service(Options::default());
        let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
        let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}});
        let mut request = post(list.clone(), None);
        request.headers_mut().insert("mcp-protocol-version", HeaderValue::from_static("2026-07-28"));
        let response = call(&mut svc, request).await;
        assert!(response.headers().get(SESSION_ID).is_none());
        assert_eq!(json_body(response).await["result"]["resultType"], "complete");
        let mismatch = call(&mut svc, post(list, None)).await;
        assert_eq!(mismatch.status(), StatusCode::BAD_REQUEST);
        assert_eq!(json_body(mismatch).await["error"]["code"], HEADER_MISMATCH);
        let discover = json!({"jsonrpc": "2.0", "id": 2, "method": "server/discover", "params": {"_meta": meta}});
        let mut request = post(discover, None);
        request.headers_mut().insert("mcp-protocol-version", HeaderValue::from_static("2026-07-28"));
        let response = call(&mut svc, request).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert!(json_body(response).await["result"]["supportedVersions"].is_array());
        assert_eq!(svc.sessions(), 0);
    })
}

#[test]
fn a_2026_listen_stream_hears_of_what_it_opted_in_to() {
    runtime().block_on(async {
        let info = ServerInfo::new("test", "0.1.0").versions(&["2026-07-28"]).capabilities(&json!({"tools": {"listChanged": true}, "resources": {"subscribe": true}})).unwrap();
        let mut svc = McpService::new(info, |_: Request, _: RequestContext| async { None });
        let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
        let filter = json!({"toolsListChanged": true, "promptsListChanged": true, "resourceSubscriptions": ["file:///a"]});
        let listen = json!({"jsonrpc": "2.0", "id": "sub-1", "method": "subscriptions/listen", "params": {"notifications": filter, "_meta": meta}});
        let mut request = post(listen, None);
        request.headers_mut().insert("mcp-protocol-version", HeaderValue::from_static("2026-07-28"));
        let mut body = call(&mut svc, request).await.into_body();
        let got = events(&mut body, 2).await;
        let ack: Value = serde_json::from_str(&got[1].1).unwrap();
        assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
        // Prompts: the server declared no list changes of them, so not agreed to.
        assert_eq!(ack["params"]["notifications"], json!({"toolsListChanged": true, "resourceSubscriptions": ["file:///a"]}));
        assert_eq!(ack["params"]["_meta"][SUBSCRIPTION_ID_META_KEY], "sub-1");
        assert_eq!(svc.publish(&Change::PromptsListChanged), 0);
        assert_eq!(svc.publish(&Change::ResourceUpdated("file:///b".into())), 0);
        assert_eq!(svc.publish(&Change::ToolsListChanged), 1);
        assert_eq!(svc.publish(&Change::ResourceUpdated("file:///a".into())), 1);
        let heard: Vec<Value> = events(&mut body, 2).await.iter().map(|e| serde_json::from_str(&e.1).unwrap()).collect();
        assert_eq!((&heard[0]["method"], &heard[1]["method"], &heard[1]["params"]["uri"]), (&json!("notifications/tools/list_changed"), &json!("notifications/resources/updated"), &json!("file:///a")));
        assert_eq!(heard[0]["params"]["_meta"][SUBSCRIPTION_ID_META_KEY], "sub-1");
        drop(body);
        assert_eq!(svc.publish(&Change::ToolsListChanged), 0, "a stream whose client is gone is closed");
    })
}

#[test]
fn without_json_answers_every_request_gets_a_stream_with_a_priming_event() {
    runtime().block_on(async {
        let mut svc = service(Options { json_answers: false, ..Options::default() });
        let id = initialize(&mut svc).await;
        let response = call(&mut svc, post(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}), Some(&id))).await;
        assert_eq!(response.headers()[header::CONTENT_TYPE], "text/event-stream");
        let got = events(&mut response.into_body(), 9).await;
        // A priming event (an id, no data), then the answer; then the stream ends.
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!((got[0].0.is_empty(), got[0].1.as_str()), (false, ""));
        assert_eq!(serde_json::from_str::<Value>(&got[1].1).unwrap()["result"], json!({"tools": []}));
    })
}

#[test]
fn a_stream_closed_by_its_handler_is_resumed_with_last_event_id() {
    runtime().block_on(async {
        let mut svc = service(Options::default());
        let id = initialize(&mut svc).await;
        let response = call(&mut svc, post(call_tool(3, "reconnect"), Some(&id))).await;
        assert_eq!(response.headers()[header::CONTENT_TYPE], "text/event-stream");
        let got = events(&mut response.into_body(), 9).await;
        assert_eq!(got.len(), 1, "the priming event alone: {got:?}");
        let mut resume = empty(Method::GET, &id);
        resume.headers_mut().insert("last-event-id", HeaderValue::from_str(&got[0].0).unwrap());
        let rest = events(&mut call(&mut svc, resume).await.into_body(), 9).await;
        assert_eq!(rest.len(), 1, "{rest:?}");
        assert!(rest[0].1.contains("after the reconnection"));
    })
}

#[test]
fn a_2025_03_26_batch_is_answered_on_its_post_stream() {
    runtime().block_on(async {
        let info = ServerInfo::new("test", "0.1.0").versions(&["2025-03-26"]).capabilities(&json!({"tools": {}})).unwrap();
        let mut svc = McpService::new(info, |_: Request, _: RequestContext| async { Some(Ok(json!({"tools": []}))) });
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
        let response = call(&mut svc, post(init, None)).await;
        let id = response.headers()[SESSION_ID].to_str().unwrap().to_owned();
        call(&mut svc, post(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), Some(&id))).await;
        let batch = json!([{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]);
        let response = call(&mut svc, post(batch, Some(&id))).await;
        let got = events(&mut response.into_body(), 9).await;
        // No priming event before 2025-11-25; the answers as one array.
        assert_eq!(got.len(), 1, "{got:?}");
        let answers: Value = serde_json::from_str(&got[0].1).unwrap();
        assert_eq!(answers.as_array().map(Vec::len), Some(2), "{answers}");
    })
}

#[test]
fn a_server_request_is_cancelled_with_the_request_it_was_made_for() {
    runtime().block_on(async {
        let mut svc = service(Options::default());
        let id = initialize(&mut svc).await;
        let mut body = call(&mut svc, post(call_tool(8, "ask"), Some(&id))).await.into_body();
        let ask: Value = serde_json::from_str(&events(&mut body, 2).await[1].1).unwrap();
        assert_eq!(ask["method"], "elicitation/create");
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 8}});
        assert_eq!(call(&mut svc, post(cancel, Some(&id))).await.status(), StatusCode::ACCEPTED);
        // The elicitation is cancelled on the stream; the cancelled call's answer is not written.
        let after: Vec<Value> = events(&mut body, 9).await.iter().map(|e| serde_json::from_str(&e.1).unwrap()).collect();
        assert_eq!(after.len(), 1, "{after:?}");
        assert_eq!((&after[0]["method"], &after[0]["params"]["requestId"]), (&json!("notifications/cancelled"), &ask["id"]));
    })
}

/// What axum's `route_service` asks of a service (compiled, not run): `Clone + Send + Sync +
/// 'static`, `Infallible` errors, a `Send` future, a body with a boxable error.
#[test]
fn the_service_fits_where_axum_mounts_services() {
    fn mountable<S, B>(_: &S)
    where
        S: Service<hyper::Request<B>, Error = Infallible, Response = hyper::Response<ResponseBody>> + Clone + Send + Sync + 'static,
        S::Future: Send + 'static,
    {
    }
    let svc = service(Options::default());
    mountable::<_, http_body_util::combinators::UnsyncBoxBody<Bytes, std::io::Error>>(&svc);
    mountable::<_, hyper::body::Incoming>(&svc);
}
