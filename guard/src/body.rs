//! The two bodies the layer hands on: [`Forward`], a request body read in part or in full (what
//! the service gets), and [`GuardBody`], a response passed on frame by frame while a copy is
//! checked ([`crate::tap`]), or the layer's own answer.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use http_body_util::BodyExt;

use crate::tap::Tap;

/// A request body as the service reads it: the bytes the layer read first, then the rest of the
/// original body (when the layer stopped at its limit), or the error that stopped the reading.
pub struct Forward<B: Body> {
    head: Option<Bytes>,
    rest: Option<Pin<Box<B>>>,
    error: Option<B::Error>,
}

/// What reading a request body within its limit gave.
pub struct Read<B: Body> {
    pub forward: Forward<B>,
    /// The whole body, when it ended within the limit.
    pub whole: Option<Bytes>,
    /// It went past the limit (the rest is still in `forward`).
    pub too_long: bool,
}

impl<B: Body<Data = Bytes>> Forward<B> {
    /// The body untouched (a GET's, a DELETE's).
    pub fn pass(body: B) -> Self {
        Forward { head: None, rest: Some(Box::pin(body)), error: None }
    }

    /// Reads `body` until its end or past `max` bytes. Trailers are not kept (MCP sends none).
    pub async fn read(body: B, max: usize) -> Read<B> {
        let mut body = Box::pin(body);
        let mut buf: Vec<u8> = Vec::new();
        loop {
            match body.frame().await {
                None => {
                    let bytes = Bytes::from(buf);
                    let forward = Forward { head: Some(bytes.clone()), rest: None, error: None };
                    return Read { forward, whole: Some(bytes), too_long: false };
                }
                Some(Err(e)) => return Read { forward: Forward { head: Some(buf.into()), rest: None, error: Some(e) }, whole: None, too_long: false },
                Some(Ok(frame)) => {
                    let Ok(data) = frame.into_data() else { continue };
                    buf.extend_from_slice(&data);
                    if buf.len() > max {
                        return Read { forward: Forward { head: Some(buf.into()), rest: Some(body), error: None }, whole: None, too_long: true };
                    }
                }
            }
        }
    }
}

// No field is ever pinned in place: the original body is boxed, the rest are moved out whole.
impl<B: Body> Unpin for Forward<B> {}

impl<B: Body<Data = Bytes>> Body for Forward<B> {
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        let this = self.get_mut();
        if let Some(head) = this.head.take().filter(|h| !h.is_empty()) {
            return Poll::Ready(Some(Ok(Frame::data(head))));
        }
        if let Some(rest) = &mut this.rest {
            return rest.as_mut().poll_frame(cx);
        }
        Poll::Ready(this.error.take().map(Err))
    }

    fn is_end_stream(&self) -> bool {
        self.head.as_ref().is_none_or(Bytes::is_empty) && self.error.is_none() && self.rest.as_ref().is_none_or(|r| r.is_end_stream())
    }

    fn size_hint(&self) -> SizeHint {
        let head = self.head.as_ref().map_or(0, |h| h.len() as u64);
        match &self.rest {
            Some(r) => {
                let h = r.size_hint();
                let mut out = SizeHint::new();
                out.set_lower(h.lower() + head);
                if let Some(u) = h.upper() {
                    out.set_upper(u + head);
                }
                out
            }
            None => SizeHint::with_exact(head),
        }
    }
}

/// A response body: the service's, passed on unchanged frame by frame while the layer checks a copy
/// between frames, or the layer's own answer.
pub struct GuardBody<B> {
    inner: Inner<B>,
}

enum Inner<B> {
    Service { body: Pin<Box<B>>, tap: Option<Box<Tap>> },
    Answer(Option<Bytes>),
}

impl<B> GuardBody<B> {
    pub(crate) fn service(body: B, mut tap: Option<Tap>) -> Self
    where
        B: Body,
    {
        // An empty body (a 202's) may never be polled: it is complete as it is.
        if let (true, Some(t)) = (body.is_end_stream(), &mut tap) {
            t.at_end();
        }
        GuardBody { inner: Inner::Service { body: Box::pin(body), tap: tap.map(Box::new) } }
    }

    pub(crate) fn answer(bytes: Bytes) -> Self {
        GuardBody { inner: Inner::Answer(Some(bytes)) }
    }
}

impl<B: Body<Data = Bytes>> Body for GuardBody<B> {
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        match &mut self.get_mut().inner {
            Inner::Answer(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            Inner::Service { body, tap } => {
                // The frame handed on last is checked now, while the peer reads it.
                if let Some(t) = tap {
                    t.check_taken();
                }
                let next = body.as_mut().poll_frame(cx);
                if let (Some(t), Poll::Ready(r)) = (tap.as_mut(), &next) {
                    match r {
                        Some(Ok(frame)) => {
                            if let Some(data) = frame.data_ref() {
                                t.take(data);
                            }
                            if body.is_end_stream() {
                                // Its copy is checked on the next poll: a body that says it has
                                // ended is polled once more while the check is pending.
                                t.at_end();
                            }
                        }
                        Some(Err(_)) => t.finish(false),
                        None => t.finish(true),
                    }
                }
                next
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.inner {
            Inner::Answer(bytes) => bytes.is_none(),
            Inner::Service { body, tap } => body.is_end_stream() && tap.as_ref().is_none_or(|t| t.is_done()),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.inner {
            Inner::Answer(bytes) => SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64)),
            Inner::Service { body, .. } => body.size_hint(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    use http_body_util::Full;

    /// A body of the given chunks, each its own frame, or errors.
    pub struct Chunks(VecDeque<Result<Bytes, std::io::Error>>);

    impl Body for Chunks {
        type Data = Bytes;
        type Error = std::io::Error;

        fn poll_frame(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
            Poll::Ready(self.get_mut().0.pop_front().map(|r| r.map(Frame::data)))
        }
    }

    fn chunks(parts: &[&'static str]) -> Chunks {
        Chunks(parts.iter().map(|p| Ok(Bytes::from_static(p.as_bytes()))).collect())
    }

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(f)
    }

    #[test]
    fn a_body_within_the_limit_is_whole_and_forwarded_as_it_was() {
        block_on(async {
            let read = Forward::read(chunks(&["{\"a\":", "1}"]), 10).await;
            assert_eq!(read.whole.as_deref(), Some(&b"{\"a\":1}"[..]));
            assert!(!read.too_long);
            assert_eq!(read.forward.collect().await.unwrap().to_bytes(), "{\"a\":1}");
        });
    }

    #[test]
    fn a_body_past_the_limit_is_forwarded_whole_all_the_same() {
        block_on(async {
            let read = Forward::read(chunks(&["12345", "67890", "abc"]), 6).await;
            assert!(read.whole.is_none() && read.too_long);
            assert_eq!(read.forward.collect().await.unwrap().to_bytes(), "1234567890abc");
            let read = Forward::read(Full::new(Bytes::from_static(b"")), 6).await;
            assert_eq!(read.whole.as_deref(), Some(&b""[..]));
            assert!(read.forward.is_end_stream());
        });
    }

    #[test]
    fn a_failed_body_fails_the_same_for_the_service() {
        block_on(async {
            let body = Chunks(VecDeque::from([Ok(Bytes::from_static(b"ab")), Err(std::io::Error::other("reset"))]));
            let read = Forward::read(body, 100).await;
            assert!(read.whole.is_none() && !read.too_long);
            let err = read.forward.collect().await.map(|c| c.to_bytes()).expect_err("the error is handed on");
            assert_eq!(err.to_string(), "reset");
        });
    }
}
