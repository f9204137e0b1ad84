//! The server as a child process: requests on its stdin, answers matched by id from its stdout.
//! Clients share the one connection, each with one request in flight at a time.

use std::collections::HashMap;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::Command;
use tokio::sync::{mpsc, oneshot};

use crate::{check_answer, check_initialized, convert_call, initialize, Latencies, Load, Parts, INITIALIZED};

type Pending = Arc<Mutex<HashMap<u64, oneshot::Sender<serde_json::Value>>>>;

/// One side of the connection: sends a line and waits for the answer with its id.
#[derive(Clone)]
struct Conn {
    lines: mpsc::UnboundedSender<Vec<u8>>,
    pending: Pending,
}

impl Conn {
    async fn request(&self, id: u64, mut line: Vec<u8>) -> Result<serde_json::Value, String> {
        let (tx, rx) = oneshot::channel();
        self.pending.lock().unwrap().insert(id, tx);
        line.push(b'\n');
        self.lines.send(line).map_err(|_| "server input closed")?;
        rx.await.map_err(|_| format!("no answer to {id}: server output closed"))
    }
}

pub async fn start(server: &[String], load: Load) -> Result<Parts, String> {
    let mut child = Command::new(&server[0]).args(&server[1..]).stdin(Stdio::piped()).stdout(Stdio::piped()).kill_on_drop(true).spawn().map_err(|e| format!("{}: {e}", server[0]))?;
    let pid = child.id().ok_or("no pid")?;
    let (mut stdin, stdout) = (child.stdin.take().unwrap(), child.stdout.take().unwrap());
    let (lines, mut to_write) = mpsc::unbounded_channel::<Vec<u8>>();
    // Writes every line waiting in one write, as a client with several requests at once would.
    tokio::spawn(async move {
        let mut batch = Vec::new();
        while to_write.recv_many(&mut batch, 64).await > 0 {
            let bytes: Vec<u8> = batch.drain(..).flatten().collect();
            if stdin.write_all(&bytes).await.is_err() {
                break;
            }
        }
    });
    let pending: Pending = Arc::default();
    let answers = pending.clone();
    tokio::spawn(async move {
        let mut out = BufReader::new(stdout).lines();
        while let Ok(Some(line)) = out.next_line().await {
            let Ok(message) = serde_json::from_str::<serde_json::Value>(&line) else { continue };
            let Some(id) = message.get("id").and_then(serde_json::Value::as_u64) else { continue };
            if let Some(tx) = answers.lock().unwrap().remove(&id) {
                let _ = tx.send(message);
            }
        }
        answers.lock().unwrap().clear();
    });
    let conn = Conn { lines, pending };
    let init = conn.request(0, initialize(0)).await?;
    check_initialized(&init)?;
    conn.lines.send([INITIALIZED, b"\n"].concat()).map_err(|_| "server input closed")?;
    let clients = (0..load.clients)
        .map(|c| {
            let (conn, start) = (conn.clone(), load.start.clone());
            let (warmup, calls, stride) = (load.warmup as u64, load.calls as u64, load.clients as u64);
            tokio::spawn(async move {
                // Ids never repeat: client c takes c+1, c+1+stride, ...
                let mut ids = (0..).map(|k| 1 + c as u64 + k * stride);
                for id in ids.by_ref().take(warmup as usize) {
                    check_answer(id, &conn.request(id, convert_call(id)).await?)?;
                }
                start.wait().await;
                let mut took = Latencies::with_capacity(calls as usize);
                for id in ids.take(calls as usize) {
                    let t = Instant::now();
                    let answer = conn.request(id, convert_call(id)).await?;
                    took.push(t.elapsed());
                    check_answer(id, &answer)?;
                }
                Ok(took)
            })
        })
        .collect();
    let stop = Box::new(move || {
        Box::pin(async move {
            // End of input ends both servers; kill one that does not stop.
            drop(conn);
            if tokio::time::timeout(std::time::Duration::from_secs(5), child.wait()).await.is_err() {
                let _ = child.kill().await;
            }
        }) as std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>
    });
    Ok(Parts { pid, clients, stop })
}
