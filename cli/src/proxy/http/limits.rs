//! What the proxy (and the bridge over HTTP) grants its clients, as a server that faces untrusted
//! ones: how long a request head may take (and a kept-alive connection may idle), how many
//! connections are served at once, and how many bytes of bodies are held at once, over all of
//! them. cli/README.md, "Serving untrusted clients", documents the defaults and their options.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http_body_util::BodyExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// `--header-timeout`'s default, seconds: hyper's own default for a request head.
pub const HEADER_TIMEOUT_SECS: u64 = 30;
/// `--max-connections`'s most (a lower `ulimit -n` lowers the default: [`default_max_connections`]).
pub const MAX_CONNECTIONS: usize = 512;
/// `--body-budget`'s default, MiB: two messages of the longest kept ([`crate::input::MAX_LINE`]).
pub const BODY_BUDGET_MIB: usize = 256;

/// The serving options of `proxy --http` (from the command line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeOptions {
    pub allow_hosts: Vec<String>,
    pub allow_origins: Vec<String>,
    /// `None`: no timeout (`--header-timeout 0`).
    pub header_timeout: Option<Duration>,
    pub max_connections: usize,
    pub body_budget: usize,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            allow_hosts: Vec::new(),
            allow_origins: Vec::new(),
            header_timeout: Some(Duration::from_secs(HEADER_TIMEOUT_SECS)),
            max_connections: default_max_connections(),
            body_budget: BODY_BUDGET_MIB << 20,
        }
    }
}

/// [`MAX_CONNECTIONS`], or fewer when the open-files limit would not hold them: each client
/// connection may hold one to the upstream too, and the process needs some of its own.
pub fn default_max_connections() -> usize {
    match open_files_limit() {
        Some(n) => (n.saturating_sub(64) / 2).clamp(8, MAX_CONNECTIONS),
        None => MAX_CONNECTIONS,
    }
}

/// The soft limit of open files (`ulimit -n`), where the system says it without `unsafe`.
fn open_files_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line["Max open files".len()..].split_whitespace().next()?.parse().ok()
}

/// The bytes of bodies held at once, over all requests and responses: a semaphore of bytes.
/// A body that needs more than is free is refused (a request: 503) or not kept (a response's
/// copy for checking: recorded as skipped), never buffered past it.
#[derive(Clone)]
pub struct BodyBudget {
    bytes: Arc<Semaphore>,
    pub total: usize,
    /// Bodies refused or not kept for want of room.
    pub refused: Arc<AtomicU64>,
}

/// Bytes of the budget held by one body; given back when dropped.
pub struct Held(Option<OwnedSemaphorePermit>);

impl Held {
    pub fn none() -> Held {
        Held(None)
    }

    /// Takes `n` more bytes of `budget`; false (and nothing taken) when they are not free.
    pub fn grow(&mut self, budget: &BodyBudget, n: usize) -> bool {
        if n == 0 {
            return true;
        }
        let Ok(n32) = u32::try_from(n) else { return false };
        match budget.bytes.clone().try_acquire_many_owned(n32) {
            Ok(p) => {
                match &mut self.0 {
                    Some(held) => held.merge(p),
                    None => self.0 = Some(p),
                }
                true
            }
            Err(_) => {
                budget.refused.fetch_add(1, Ordering::Relaxed);
                false
            }
        }
    }

    pub fn bytes(&self) -> usize {
        self.0.as_ref().map_or(0, |p| p.num_permits())
    }
}

impl BodyBudget {
    pub fn new(total: usize) -> BodyBudget {
        // A semaphore holds at most `Semaphore::MAX_PERMITS`.
        let total = total.min(Semaphore::MAX_PERMITS);
        BodyBudget { bytes: Arc::new(Semaphore::new(total)), total, refused: Arc::new(AtomicU64::new(0)) }
    }

    pub fn free(&self) -> usize {
        self.bytes.available_permits()
    }

    /// Reads a whole body of at most `max` bytes within the budget; the bytes stay held until
    /// the returned [`Held`] is dropped. `Err` has the status to answer and why.
    pub async fn collect<B>(&self, mut body: B, max: usize) -> Result<(Bytes, Held), (u16, String)>
    where
        B: hyper::body::Body<Data = Bytes> + Unpin,
        B::Error: std::fmt::Display,
    {
        let mut held = Held::none();
        let mut buf = BytesMut::new();
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| (400, format!("reading the body: {e}")))?;
            let Ok(data) = frame.into_data() else { continue };
            if buf.len() + data.len() > max {
                return Err((413, format!("the body is longer than {max} bytes")));
            }
            if !held.grow(self, data.len()) {
                return Err((503, self.spent()));
            }
            buf.extend_from_slice(&data);
        }
        Ok((buf.freeze(), held))
    }

    /// Why a body was refused for want of room.
    pub fn spent(&self) -> String {
        format!("the bodies held at once would pass {} MiB (--body-budget); try again later", self.total >> 20)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_shared_and_given_back() {
        let b = BodyBudget::new(100);
        let mut one = Held::none();
        assert!(one.grow(&b, 60));
        let mut two = Held::none();
        assert!(!two.grow(&b, 41));
        assert!(two.grow(&b, 40));
        assert_eq!((b.free(), one.bytes(), b.refused.load(Ordering::Relaxed)), (0, 60, 1));
        drop(one);
        assert_eq!(b.free(), 60);
        drop(two);
        assert_eq!(b.free(), 100);
    }
}
