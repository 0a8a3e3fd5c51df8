//! The browser shell: it feeds the engine what the browser tells it (answers, stream bytes,
//! visibility, page hide/show, timers, handler results) and carries out what the engine asks
//! (fetch, open/close the stream, run or abort a JS handler, tell the app).
//!
//! By idea: [`driver`] routes the engine's outputs (the loop and its timer are `guards::drain`,
//! which the WebSocket shell runs too) and is the `host` of the parts below, which see only
//! that narrow trait, never the driver (no part imports it); `stream` reads the event
//! stream; `calls` keeps the running handlers' `ctx`; `lifecycle` follows the page; `guards`
//! hold JS resources (listeners, abort controllers) that undo themselves on drop; `net` is
//! `fetch`; `sending` queues the engine's requests by urgency, a few at a time; `share` lets
//! the tabs on one session read one event stream (the shell of `client_tools_core::share`); `handlers`
//! calls a JS handler (for every transport); `keys` and `read` read an app's option objects
//! (the JS API's, client-tools/testing's), naming the field that does not fit.
//! JS plumbing shared with the page tools is `crate::js`.

pub(crate) mod calls;
mod driver;
#[cfg(feature = "js-api")]
pub(crate) mod events;
pub(crate) mod guards;
pub(crate) mod handlers;
mod host;
#[cfg(any(feature = "js-api", feature = "page-tools", feature = "testing-js"))]
pub(crate) mod keys;
mod lifecycle;
pub(crate) mod net;
pub(crate) mod oneshot;
#[cfg(any(feature = "js-api", feature = "testing-js"))]
pub(crate) mod read;
mod sending;
mod share;
mod stream;

pub(crate) use driver::{now, Shared};

/// The lock and channel name the tabs on one session share its stream under.
///
/// With a token source (`refreshes`) the tabs' tokens differ and change, so the name is the
/// session's alone: this origin's tabs on the session share whatever token each holds.
/// Otherwise the name holds a hash of the token as it is sent (trimmed, as `fetch` trims
/// it), so that `"tok"` and `"tok\n"` share one stream.
pub(crate) fn share_channel(
    settings: &client_tools_core::api::Settings,
    refreshes: bool,
) -> String {
    let token = if refreshes {
        ""
    } else {
        // A token that cannot be sent never registers, so never shares either.
        client_tools_core::engine::sendable_token(&settings.token).unwrap_or(&settings.token)
    };
    share::channel_name(&settings.base_url, &settings.session_id, token)
}
