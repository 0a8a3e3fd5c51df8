//! What the parts of one client's shell (its stream connections, the stream sharing, the page
//! lifecycle) may ask of the client, without seeing it whole: feed its engine, and tell it what
//! a stream connection did. The driver's `Shared` is the one host; the parts are generic over
//! it (one copy each, nothing dynamic), so no part imports the driver and the driver routes
//! everything: events go up to the host, calls come down from it.

use crate::engine::{Input, StreamId};
use std::rc::Rc;

/// What a stream connection did (`stream`'s reading task tells its host).
pub(super) enum Conn<'a> {
    /// The server answered with `status`.
    Opened(u16),
    /// A chunk of the body.
    Bytes(&'a [u8]),
    /// It ended: `None` cleanly, else why.
    Closed(Option<String>),
}

/// One client, as its parts see it.
pub(super) trait Host: 'static {
    /// Feeds one input to the engine and carries out what follows.
    fn feed(self: &Rc<Self>, input: Input);
    /// Feeds bytes of the engine's `stream` (a follower's: forwarded by the leading tab).
    fn feed_stream(self: &Rc<Self>, stream: StreamId, bytes: &[u8]);
    /// This tab's own connection for `stream` did something.
    fn connection(self: &Rc<Self>, stream: StreamId, event: Conn<'_>);
    /// Opens this tab's own connection for `stream` (the leading tab reads it for all).
    fn open_connection(
        self: &Rc<Self>,
        stream: StreamId,
        url: String,
        headers: Vec<(&'static str, String)>,
    );
    /// Aborts this tab's own connection for `stream`, if it has one.
    fn close_connection(&self, stream: StreamId);
}
