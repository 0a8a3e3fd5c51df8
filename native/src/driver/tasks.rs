//! The tasks the driver spawns (a request, a stream connection, a handler) and what they
//! report back to it.

use crate::handler::{self, CallContext, Handler};
use crate::http::{self, Http};
use bytes::Bytes;
use client_tools_core::calls::Returned;
use client_tools_core::engine::{HttpRequest, RequestId, StreamId};
use serde_json::{Map, Value};
use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::task::AbortHandle;
use tokio_util::sync::{CancellationToken, DropGuard};

/// What the task's helpers (requests, the stream, handlers) report.
pub(super) enum Event {
    Answer {
        request: RequestId,
        result: Result<http::Answer, String>,
    },
    StreamOpened(StreamId, u16),
    StreamBytes(StreamId, Bytes),
    StreamClosed(StreamId, Option<String>),
    HandlerDone(String, Returned),
    /// The token source's answer after a 401.
    Token(Result<String, String>),
}

/// Aborts a task when dropped: a stream connection the engine closed, or every one left
/// when the client's task ends.
pub(super) struct AbortOnDrop(pub(super) AbortHandle);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A running handler: dropping the guard cancels its token.
pub(super) struct Running {
    _cancel: DropGuard,
    pub(super) deadline_ms: Arc<AtomicU64>,
}

/// One stream connection: opens it, reports its status, then every chunk until it ends or
/// fails. A connection that stays silent too long is the engine's to give up (its stream
/// deadlines): it asks for `CloseStream`, which aborts this task.
pub(super) async fn read_stream(
    http: Http,
    events: mpsc::UnboundedSender<Event>,
    stream: StreamId,
    url: String,
    headers: Vec<(&'static str, String)>,
    open_timeout: Duration,
) {
    let (status, mut body) = match http.open_stream(&url, &headers, open_timeout).await {
        Ok(opened) => opened,
        Err(e) => {
            let _ = events.send(Event::StreamClosed(stream, Some(e)));
            return;
        }
    };
    let _ = events.send(Event::StreamOpened(stream, status));
    let error = if status == 200 {
        loop {
            match http::next_chunk(&mut body).await {
                Ok(Some(bytes)) => {
                    if events.send(Event::StreamBytes(stream, bytes)).is_err() {
                        return; // the client's task is gone
                    }
                }
                Ok(None) => break None,
                Err(e) => break Some(e),
            }
        }
    } else {
        None
    };
    let _ = events.send(Event::StreamClosed(stream, error));
}

/// Sends one request; its answer (or why there is none) goes back as [`Event::Answer`].
pub(super) fn send(
    http: Http,
    events: mpsc::UnboundedSender<Event>,
    req: HttpRequest,
    timeout: Duration,
) {
    tokio::spawn(async move {
        let result = http
            .send(
                req.method.as_str(),
                &req.url,
                &req.headers,
                req.body,
                timeout,
            )
            .await;
        let _ = events.send(Event::Answer {
            request: req.id,
            result,
        });
    });
}

/// Runs a handler on its own task; its outcome goes back as [`Event::HandlerDone`]. The
/// returned [`Running`] cancels the handler's token when dropped.
pub(super) fn run_handler(
    events: mpsc::UnboundedSender<Event>,
    handler: Handler,
    call_id: String,
    run_id: String,
    tool: String,
    arguments: Map<String, Value>,
    deadline_ms: u64,
) -> Running {
    let cancel = CancellationToken::new();
    let deadline = Arc::new(AtomicU64::new(deadline_ms));
    let ctx = CallContext {
        call_id: call_id.clone(),
        run_id,
        tool,
        cancel: cancel.clone(),
        deadline_ms: deadline.clone(),
    };
    tokio::spawn(async move {
        let returned = handler::run(handler, arguments, ctx).await;
        let _ = events.send(Event::HandlerDone(call_id, returned));
    });
    Running {
        _cancel: cancel.drop_guard(),
        deadline_ms: deadline,
    }
}
