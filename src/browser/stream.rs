//! The event stream connections: each a fetch read chunk by chunk into the engine. A
//! connection is aborted when the engine closes it or the client goes away (its abort guard is
//! dropped); its task holds the client weakly, so a dropped client stops streaming. A tab that
//! leads a shared stream (`share`) hands what it reads to the other tabs too.

use super::driver::{now, Shared};
use super::guards::Abort;
use super::net;
use crate::engine::{Input, StreamId};
use client_tools_core::vec_map::VecMap;
use std::cell::RefCell;
use std::rc::{Rc, Weak};

/// The open stream connections, by the engine's id.
#[derive(Default)]
pub(super) struct Streams {
    open: RefCell<VecMap<StreamId, Abort>>,
}

impl Streams {
    /// Aborts a connection (its guard is dropped).
    pub(super) fn close(&self, stream: StreamId) {
        drop(self.open.borrow_mut().remove(&stream));
    }

    /// Opens `url` and feeds what it reads to `shared`'s engine until it ends or is closed.
    pub(super) fn open(
        &self,
        shared: &Rc<Shared>,
        stream: StreamId,
        url: String,
        headers: Vec<(&'static str, String)>,
    ) {
        let Some(abort) = Abort::new("the stream was closed") else {
            let error = Some("this browser has no AbortController".to_owned());
            return shared.feed(Input::StreamClosed { stream, error });
        };
        let Some(signal) = abort.signal() else { return };
        self.open.borrow_mut().insert(stream, abort);
        let weak: Weak<Shared> = Rc::downgrade(shared);
        crate::task::spawn(Box::pin(async move {
            if let Some(error) = read(&weak, stream, &url, &headers, &signal).await {
                closed(&weak, stream, error);
            }
        }));
    }
}

/// Reads connection `stream` into the engine until it ends: `Some(error)` (`None` for a clean
/// end), or `None` once the client has gone. No strong reference is held across an `await`.
async fn read(
    weak: &Weak<Shared>,
    stream: StreamId,
    url: &str,
    headers: &[(&'static str, String)],
    signal: &web_sys::AbortSignal,
) -> Option<Option<String>> {
    let mut conn = match net::open_stream(url, headers, signal).await {
        Ok(c) => c,
        Err(message) => return Some(Some(message)),
    };
    {
        let shared = weak.upgrade()?;
        let status = conn.status;
        if let Some(share) = shared.share() {
            share.on_opened(stream, status);
        }
        shared.feed(Input::StreamOpened { stream, status });
    }
    let mut buf = Vec::new();
    loop {
        let read = conn.read(&mut buf).await;
        // Between chunks the client may have gone: then stop reading.
        let shared = weak.upgrade()?;
        match read {
            Ok(true) => {
                if let Some(share) = shared.share() {
                    share.on_bytes(stream, &buf);
                }
                shared
                    .engine
                    .borrow_mut()
                    .handle_stream_bytes(stream, &buf, now());
                shared.drain();
            }
            Ok(false) => return Some(None),
            Err(message) => return Some(Some(message)),
        }
    }
}

/// Connection `stream` ended (or never opened): the engine and a shared stream's followers
/// learn it, if the client is still there.
fn closed(weak: &Weak<Shared>, stream: StreamId, error: Option<String>) {
    let Some(shared) = weak.upgrade() else { return };
    shared.streams.close(stream);
    if let Some(share) = shared.share() {
        share.on_closed(stream);
    }
    shared.feed(Input::StreamClosed { stream, error });
}
