//! The browser shell of the core's one `Tool` and `Options` builder: a handler gets a
//! [`CallContext`], handlers and callbacks run on the page's event loop (need not be `Send`),
//! and the options hold what only a tab has.

use super::context::CallContext;
use client_tools_core::api::shell::Local;
use client_tools_core::api::Shell;
use client_tools_core::protocol::Lifetime;

/// The browser shell: `client_tools::Tool` is `client_tools_core::api::Tool<Browser>`, and
/// `client_tools::Options` is `client_tools_core::api::Options<Browser>`. A handler gets a
/// [`CallContext`]; neither handlers, their futures nor callbacks need be `Send`.
#[derive(Clone, Copy, Debug)]
pub enum Browser {}

impl Shell for Browser {
    type Context = CallContext;
    type Threads = Local;
    type Extra = BrowserExtra;
    const NAME: &'static str = "web";
    fn lifetime() -> Lifetime {
        Lifetime::default()
    }
    fn extra() -> BrowserExtra {
        BrowserExtra {
            share_stream: true,
            signal: None,
            fetch: None,
        }
    }
}

/// What only a tab's options hold, set by [`BrowserOptions`](super::BrowserOptions).
#[derive(Clone)]
pub struct BrowserExtra {
    pub(crate) share_stream: bool,
    pub(crate) signal: Option<web_sys::AbortSignal>,
    pub(crate) fetch: Option<js_sys::Function>,
}

/// A handler with its closure type erased: every transport (Sessions, a registry, WebMCP,
/// turns, a voice agent's socket) and the JS API run tools through it.
pub(crate) type Handler = client_tools_core::api::Handler<Browser>;
