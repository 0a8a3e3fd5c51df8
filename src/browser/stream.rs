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
        crate::js::spawn(Box::pin(async move {
            let opened = net::open_stream(&url, &headers, &signal).await;
            let Some(shared) = weak.upgrade() else { return };
            let mut conn = match opened {
                Ok(c) => c,
                Err(message) => {
                    shared.streams.close(stream);
                    if let Some(share) = shared.share() {
                        share.on_closed(stream);
                    }
                    let error = Some(message);
                    return shared.feed(Input::StreamClosed { stream, error });
                }
            };
            let status = conn.status;
            if let Some(share) = shared.share() {
                share.on_opened(stream, status);
            }
            shared.feed(Input::StreamOpened { stream, status });
            drop(shared);
            let mut buf = Vec::new();
            let error = loop {
                let read = conn.read(&mut buf).await;
                // Between chunks the client may have gone: then stop reading.
                let Some(shared) = weak.upgrade() else { return };
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
                    Ok(false) => break None,
                    Err(message) => break Some(message),
                }
            };
            let Some(shared) = weak.upgrade() else { return };
            shared.streams.close(stream);
            if let Some(share) = shared.share() {
                share.on_closed(stream);
            }
            shared.feed(Input::StreamClosed { stream, error });
        }));
    }
}
