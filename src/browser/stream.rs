//! The event stream connections: each a fetch read chunk by chunk, told to its host (the
//! client, which feeds its engine and, leading a shared stream, the other tabs). A connection
//! is aborted when the engine closes it or the client goes away (its abort guard is dropped);
//! its task holds the client weakly, so a dropped client stops streaming.

use super::guards::Abort;
use super::host::{Conn, Host};
use super::net;
use crate::engine::{Input, StreamId};
use crate::js::JsRefCell;
use client_tools_core::vec_map::VecMap;
use std::rc::{Rc, Weak};

/// The open stream connections, by the engine's id.
#[derive(Default)]
pub(super) struct Streams {
    open: JsRefCell<VecMap<StreamId, Abort>>,
}

impl Streams {
    /// Aborts a connection (its guard is dropped).
    pub(super) fn close(&self, stream: StreamId) {
        // Out of the map first: the guard's drop aborts the fetch, a call into JS.
        let gone = self.open.borrow_mut().remove(&stream);
        drop(gone);
    }

    /// Opens `url` and tells `host` what the connection does until it ends or is closed.
    /// `fetch`: the app's `fetch` option, used instead of the global `fetch`.
    pub(super) fn open<H: Host>(
        &self,
        host: &Rc<H>,
        stream: StreamId,
        url: String,
        headers: Vec<(&'static str, String)>,
        fetch: Option<js_sys::Function>,
    ) {
        let Some(abort) = Abort::new("the stream was closed") else {
            let error = Some("this browser has no AbortController".to_owned());
            return host.feed(Input::StreamClosed { stream, error });
        };
        let Some(signal) = abort.signal() else { return };
        self.open.borrow_mut().insert(stream, abort);
        let weak: Weak<H> = Rc::downgrade(host);
        crate::js::promise::spawn(Box::pin(async move {
            let conn = net::open_stream(fetch.as_ref(), &url, &headers, &signal).await;
            if let Some(error) = read(&weak, stream, conn).await {
                if let Some(host) = weak.upgrade() {
                    host.connection(stream, Conn::Closed(error));
                }
            }
        }));
    }
}

/// Reads connection `stream` into its host until it ends: `Some(error)` (`None` for a clean
/// end), or `None` once the client has gone. No strong reference is held across an `await`.
async fn read<H: Host>(
    weak: &Weak<H>,
    stream: StreamId,
    conn: Result<net::Stream, String>,
) -> Option<Option<String>> {
    let mut conn = match conn {
        Ok(c) => c,
        Err(message) => return Some(Some(message)),
    };
    weak.upgrade()?
        .connection(stream, Conn::Opened(conn.status));
    let mut buf = Vec::new();
    loop {
        let read = conn.read(&mut buf).await;
        match read {
            Ok(true) => {}
            Ok(false) => return Some(None),
            Err(message) => return Some(Some(message)),
        }
        // A large chunk (a burst of events read at once) goes to the engine a piece at a time,
        // the event loop running between pieces: no task holds the page for the whole chunk.
        for (i, piece) in buf.chunks(FEED_BYTES).enumerate() {
            if i > 0 {
                next_task().await;
            }
            // Between chunks the client may have gone: then stop reading.
            weak.upgrade()?.connection(stream, Conn::Bytes(piece));
        }
    }
}

/// The most of a stream chunk fed to the engine in one task: ~60 events of ~280 bytes.
const FEED_BYTES: usize = 16 * 1024;

/// Resolves in a later task (a zero timeout), after the event loop had its turn.
async fn next_task() {
    let (tx, rx) = super::oneshot::channel();
    super::guards::detached(0, Box::new(move || tx.send(())));
    let _ = rx.await;
}
