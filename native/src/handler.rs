//! Tool handlers: async closures, the context they get, and how what they return becomes the
//! call's result.

use client_tools_core::api::shell::Sendable;
use client_tools_core::api::Shell;
use client_tools_core::calls::Returned;
pub use client_tools_core::calls::DONE_TEXT;
use client_tools_core::protocol::Lifetime;
use serde_json::{Map, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio_util::sync::CancellationToken;

/// The `is_error` text of a handler that panicked. The panic's message is not sent: it may
/// hold anything, and the model reads the result.
pub const PANICKED_TEXT: &str = "The tool failed: its handler panicked.";

/// What a handler gets besides the arguments: which call this is, a token cancelled when the
/// answer is no longer wanted, and the deadline.
#[derive(Clone, Debug)]
pub struct CallContext {
    pub(crate) call_id: String,
    pub(crate) run_id: String,
    pub(crate) tool: String,
    pub(crate) cancel: CancellationToken,
    pub(crate) deadline_ms: Arc<AtomicU64>,
}

impl CallContext {
    /// The call's id (`call_…`), unique per call.
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// The agent run the call belongs to.
    pub fn run_id(&self) -> &str {
        &self.run_id
    }

    /// The tool's name.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// Cancelled when the answer is no longer wanted: the call failed on the server
    /// (`run_gone`, `result_timeout`, …), the local deadline passed, or the client left.
    /// A handler should stop then; whatever it returns afterwards is dropped.
    pub fn cancellation(&self) -> &CancellationToken {
        &self.cancel
    }

    /// Whether the answer is no longer wanted (see [`CallContext::cancellation`]).
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// Completes once the answer is no longer wanted (see [`CallContext::cancellation`]): a
    /// handler can `select!` its work against it.
    pub async fn cancelled(&self) {
        self.cancel.cancelled().await
    }

    /// When the client answers "timed out" in the handler's place: the tool's timeout after
    /// dispatch, or earlier once the server's result deadline is known. It may move earlier
    /// while the handler runs, never later.
    pub fn deadline(&self) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(self.deadline_ms.load(Ordering::Relaxed))
    }

    /// Time left until [`CallContext::deadline`] (zero once it passed).
    pub fn remaining(&self) -> Duration {
        self.deadline()
            .duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO)
    }
}

/// The worker shell: a handler gets a [`CallContext`]; handlers, their futures and callbacks
/// are `Send` (each call runs on its own tokio task). Its options hold nothing of their own.
#[derive(Clone, Copy, Debug)]
pub enum Worker {}

impl Shell for Worker {
    type Context = CallContext;
    type Threads = Sendable;
    type Extra = ();
    const NAME: &'static str = "worker";
    fn lifetime() -> Lifetime {
        Lifetime::Never
    }
    fn extra() {}
}

/// A handler with its closure type erased: the worker shell's.
pub(crate) type Handler = client_tools_core::api::Handler<Worker>;

/// Runs a handler on its own task and waits for its answer. The closure is called inside
/// that task, so a panic while building the future is caught like one while polling it:
/// either way the call gets [`PANICKED_TEXT`], never silence.
pub(crate) async fn run(handler: Handler, args: Map<String, Value>, ctx: CallContext) -> Returned {
    let task = tokio::spawn(async move { handler(args, ctx).await });
    match task.await {
        Ok(returned) => returned,
        Err(e) if e.is_panic() => Returned::Threw(PANICKED_TEXT.to_owned()),
        // Only a runtime shutting down cancels the task; nobody reads this answer then.
        Err(_) => Returned::Threw("The tool's handler was stopped.".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use client_tools_core::api::IntoToolResult;
    use serde_json::json;

    #[test]
    fn results_map_as_documented() {
        use client_tools_core::calls::{Answer, Content};
        let text = |r: Returned| {
            Answer::from_returned(r).into_text(client_tools_core::calls::ResultLimit::None)
        };
        assert_eq!(text("hi".into_returned()), ("hi".to_owned(), false));
        assert_eq!(
            text(String::from("hi").into_returned()),
            ("hi".to_owned(), false)
        );
        assert_eq!(text(().into_returned()), (DONE_TEXT.to_owned(), false));
        assert_eq!(
            text(json!("text").into_returned()),
            ("text".to_owned(), false)
        );
        assert_eq!(
            text(json!({"rows": [1, 2]}).into_returned()),
            (r#"{"rows":[1,2]}"#.to_owned(), false)
        );
        assert_eq!(
            text(json!(null).into_returned()),
            ("null".to_owned(), false)
        );
        let ok: Result<Value, String> = Ok(json!(3));
        assert_eq!(text(ok.into_returned()), ("3".to_owned(), false));
        let err: Result<String, std::io::Error> = Err(std::io::Error::other("disk full"));
        assert_eq!(text(err.into_returned()), ("disk full".to_owned(), true));
        let tool_result = json!({"success": false, "data": null, "error": "no row"});
        assert_eq!(
            text(tool_result.into_returned()),
            ("no row".to_owned(), true)
        );
        assert_eq!(
            Answer::from_returned(json!({"success": true, "data": [1]}).into_returned()),
            Answer::Ok(Content::Json("[1]".to_owned()))
        );
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_an_error_without_its_message() {
        let ctx = CallContext {
            call_id: "call_1".into(),
            run_id: "run_1".into(),
            tool: "boom".into(),
            cancel: CancellationToken::new(),
            deadline_ms: Arc::new(AtomicU64::new(0)),
        };
        let h = client_tools_core::api::Tool::<Worker>::new("boom", "", |_args, _ctx| async move {
            if true {
                panic!("secret internal state");
            }
            "never"
        })
        .into_parts()
        .handler;
        assert_eq!(
            run(h, Map::new(), ctx.clone()).await,
            Returned::Threw(PANICKED_TEXT.to_owned())
        );
        // A panic in the closure itself, before any future exists.
        let h: Handler = Arc::new(|_args, _ctx| panic!("before the future"));
        assert_eq!(
            run(h, Map::new(), ctx).await,
            Returned::Threw(PANICKED_TEXT.to_owned())
        );
    }
}
