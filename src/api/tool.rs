//! A tool a page serves: its definition (the core's) and its handler, an async closure that
//! need not be `Send`.

use super::CallContext;
use client_tools_core::api::{typed_arguments, IntoToolResult};
use client_tools_core::calls::{Returned, ToolDef};
use client_tools_core::protocol::ToolSpec;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::time::Duration;

/// A handler's answer, boxed so that tools of different closure types share one list.
pub(crate) type Answer = Pin<Box<dyn Future<Output = Returned>>>;

/// A handler with its closure type erased: every transport (Sessions, a registry, WebMCP,
/// turns, a voice agent's socket) and the JS API run tools through it.
pub(crate) type Handler = Rc<dyn Fn(Map<String, Value>, CallContext) -> Answer>;

/// A tool the page offers: its declaration, its local rules and its handler.
#[derive(Clone)]
pub struct Tool {
    pub(crate) def: ToolDef,
    pub(crate) handler: Handler,
    /// WebMCP annotations (`{ "readOnlyHint": true }`), as JSON text: handed to
    /// `registerTool` as they are, never read by the SDK.
    pub(crate) annotations: Option<String>,
    /// Whether a voice agent waits for the result (Cartesia, ElevenLabs; default true).
    pub(crate) expects_response: bool,
}

impl Tool {
    /// A tool whose handler is an async closure of the arguments (already checked against
    /// [`Tool::parameters`]) and a [`CallContext`]; what it returns becomes the result as
    /// [`IntoToolResult`] says. On wasm32 neither the closure nor its future need be `Send`:
    /// they may hold `Rc`s, signals and DOM nodes.
    ///
    /// ```no_run
    /// use client_tools::Tool;
    /// use serde_json::json;
    ///
    /// let highlight = Tool::new("highlight_row", "Highlight a row of the table.", |args, _ctx| async move {
    ///     let row = args["row_id"].as_str().unwrap_or_default().to_owned();
    ///     format!("Row {row} is highlighted.")
    /// })
    /// .parameters(json!({"type": "object", "required": ["row_id"],
    ///     "properties": {"row_id": {"type": "string"}}}))
    /// .max_calls_per_run(10);
    /// ```
    pub fn new<F, Fut, R>(name: impl Into<String>, description: impl Into<String>, f: F) -> Tool
    where
        F: Fn(Map<String, Value>, CallContext) -> Fut + 'static,
        Fut: Future<Output = R> + 'static,
        R: IntoToolResult + 'static,
    {
        let handler: Handler = Rc::new(move |args, ctx| {
            let fut = f(args, ctx);
            Box::pin(async move { fut.await.into_returned() })
        });
        Tool::with_handler(name.into(), description.into(), handler)
    }

    /// A tool whose handler takes its arguments as an `A`: arguments that do not deserialize
    /// are answered `is_error` naming the field (`row_id: invalid type: integer `42`, expected
    /// a string`) and the handler does not run. Give [`Tool::parameters`] too, so that the
    /// model knows the shape.
    ///
    /// ```no_run
    /// use client_tools::Tool;
    /// #[derive(serde::Deserialize)]
    /// struct Row { row_id: String }
    ///
    /// let open = Tool::typed("open_row", "Open a row.", |row: Row, _ctx| async move {
    ///     format!("Row {} is open.", row.row_id)
    /// });
    /// ```
    pub fn typed<A, F, Fut, R>(
        name: impl Into<String>,
        description: impl Into<String>,
        f: F,
    ) -> Tool
    where
        A: DeserializeOwned + 'static,
        F: Fn(A, CallContext) -> Fut + 'static,
        Fut: Future<Output = R> + 'static,
        R: IntoToolResult + 'static,
    {
        let f = Rc::new(f);
        let handler: Handler = Rc::new(move |args, ctx| {
            let read = typed_arguments::<A>(args);
            let f = f.clone();
            Box::pin(async move {
                match read {
                    Ok(args) => f(args, ctx).await.into_returned(),
                    Err(why) => Returned::Threw(why),
                }
            })
        });
        Tool::with_handler(name.into(), description.into(), handler)
    }

    pub(crate) fn with_handler(name: String, description: String, handler: Handler) -> Tool {
        Tool {
            def: ToolDef::new(ToolSpec {
                name,
                description,
                parameters: None,
            }),
            handler,
            annotations: None,
            expects_response: true,
        }
    }

    /// The JSON Schema of the arguments; calls whose arguments fail it are answered
    /// `is_error` without running the handler.
    pub fn parameters(mut self, schema: Value) -> Tool {
        self.def.spec.parameters = Some(schema);
        self
    }

    /// The local deadline of one call (default 30 s): past it the call is answered "timed out
    /// after N ms" and the handler's context is cancelled.
    pub fn timeout(mut self, timeout: Duration) -> Tool {
        self.def.timeout_ms = Some(timeout.as_millis() as u64);
        self
    }

    /// At most this many calls per agent run; later ones get an `is_error` result.
    pub fn max_calls_per_run(mut self, max: u32) -> Tool {
        self.def.max_calls_per_run = Some(max);
        self
    }

    /// WebMCP annotations passed to `registerTool` (`{ "readOnlyHint": true }`).
    pub fn annotations(mut self, annotations: Value) -> Tool {
        self.annotations = Some(client_tools_core::json::json_text(&annotations));
        self
    }

    /// Over a voice agent's socket (Cartesia, ElevenLabs): whether the platform waits for the
    /// result (default true).
    pub fn expects_response(mut self, expects: bool) -> Tool {
        self.expects_response = expects;
        self
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.def.spec.name
    }
}

impl AsRef<ToolDef> for Tool {
    fn as_ref(&self) -> &ToolDef {
        &self.def
    }
}
