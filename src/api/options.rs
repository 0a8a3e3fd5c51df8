//! What the app configures: the core's one `Options` builder over the browser shell, and the
//! builders only a tab has ([`BrowserOptions`]).

use super::Browser;
use client_tools_core::engine::WhenHidden;

/// Everything [`Client::register`](super::Client::register) needs. The builders are
/// [`client_tools_core::api::Options`]'s, the same as the worker's
/// (`client_tools_native::Options`), and [`BrowserOptions`]' for what only a tab has
/// (`when_hidden`, `share_stream`, `signal`, `fetch`). The client is named `web` and lives by a 60-s
/// TTL kept alive by pings, keeps pinging while hidden and shares the session's event stream
/// with this origin's other tabs.
///
/// ```no_run
/// use client_tools::{BrowserOptions, Options, WhenHidden};
/// # async fn fetch_token() -> Result<String, String> { Ok("t".into()) }
///
/// let options = Options::new("https://agent.example.com", "session-id", "first-token")
///     .when_hidden(WhenHidden::Pause)
///     .token_source(|| async { fetch_token().await });
/// ```
pub type Options = client_tools_core::api::Options<Browser>;

/// The options only a tab has, on [`Options`] (`use client_tools::BrowserOptions` to call
/// them): a worker is never hidden, has no other tabs to share a stream with, and stops on its
/// own signal.
pub trait BrowserOptions {
    /// What the client does while the page is hidden (default: keep pinging).
    fn when_hidden(self, when_hidden: WhenHidden) -> Self;

    /// Whether to share the session's one event stream with this origin's other tabs on the
    /// same session (default true, where the browser can).
    fn share_stream(self, share: bool) -> Self;

    /// Aborting `signal` stops the client: a pending registration fails with
    /// [`ErrorKind::Aborted`](crate::ErrorKind::Aborted) (and is undone if the server took
    /// it), a registered client leaves.
    fn signal(self, signal: web_sys::AbortSignal) -> Self;

    /// A function used instead of the global `fetch` for every request of the client, the
    /// event stream included: called as `fetch(url, init)` (`init` a plain object: `method`,
    /// `headers` as a record, `body`, `keepalive`, `signal`), it returns a `Response` or a
    /// promise of one. For a proxy, a custom auth layer, or a test agent in the page
    /// (`client_tools::testing`). A client with its own `fetch` does not share the stream
    /// with other tabs, which would read it with theirs.
    fn fetch(self, fetch: js_sys::Function) -> Self;
}

impl BrowserOptions for Options {
    fn when_hidden(mut self, when_hidden: WhenHidden) -> Options {
        self.parts_mut().settings.when_hidden = when_hidden;
        self
    }

    fn share_stream(mut self, share: bool) -> Options {
        self.parts_mut().extra.share_stream = share;
        self
    }

    fn signal(mut self, signal: web_sys::AbortSignal) -> Options {
        self.parts_mut().extra.signal = Some(signal);
        self
    }

    fn fetch(mut self, fetch: js_sys::Function) -> Options {
        self.parts_mut().extra.fetch = Some(fetch);
        self
    }
}
