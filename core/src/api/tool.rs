//! The one `Tool` builder of both shells: a tool's declaration, its local rules and its
//! handler, whose type is the shell's ([`Shell`]).

use super::shell::{Arguments, HoldsHandler, Shell, Threads, Typed, Untyped};
use crate::calls::ToolDef;
use crate::json::json_text;
use crate::protocol::ToolSpec;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::fmt;
use std::time::Duration;

/// A shell's handler: its closure type erased.
pub type Handler<S> = <<S as Shell>::Threads as Threads>::Handler<<S as Shell>::Context>;

/// A tool a client offers: its declaration, its local rules and its handler. The browser SDK's
/// `client_tools::Tool` and the worker's `client_tools_native::Tool` are this type over their
/// shell, so they have the same builders.
pub struct Tool<S: Shell> {
    parts: ToolParts<S>,
}

/// What a tool is made of, as the shell's transports read it.
pub struct ToolParts<S: Shell> {
    /// The declaration and the local rules the call runtime keeps.
    pub def: ToolDef,
    /// The handler.
    pub handler: Handler<S>,
    /// WebMCP annotations (`{ "readOnlyHint": true }`) as JSON text: handed to `registerTool`
    /// as they are, never read by the SDK.
    pub annotations: Option<String>,
    /// Whether a voice agent waits for the result.
    pub expects_response: bool,
}

impl<S: Shell> Clone for ToolParts<S> {
    fn clone(&self) -> Self {
        ToolParts {
            def: self.def.clone(),
            handler: self.handler.clone(),
            annotations: self.annotations.clone(),
            expects_response: self.expects_response,
        }
    }
}

impl<S: Shell> Clone for Tool<S> {
    fn clone(&self) -> Self {
        Tool {
            parts: self.parts.clone(),
        }
    }
}

impl<S: Shell> Tool<S> {
    /// A tool whose handler is an async closure `|args, ctx| async move { … }` of the
    /// arguments (a JSON object, already checked against [`Tool::parameters`]) and the shell's
    /// `CallContext`; what it returns becomes the result as
    /// [`IntoToolResult`](super::IntoToolResult) says. In a tab neither the closure nor its
    /// future need be `Send` (they may hold `Rc`s, signals and DOM nodes); in a worker both
    /// must be, and each call runs on its own tokio task (work that blocks the thread belongs
    /// in `tokio::task::spawn_blocking`).
    pub fn new<F, Fut>(name: impl Into<String>, description: impl Into<String>, f: F) -> Self
    where
        F: Fn(Map<String, Value>, S::Context) -> Fut,
        S::Threads: HoldsHandler<Untyped, S::Context, F, Fut>,
    {
        Tool::built::<Untyped, F, Fut>(name, description, f)
    }

    /// A tool whose handler takes its arguments as an `A`: arguments that do not deserialize
    /// are answered `is_error` naming the field (`row_id: invalid type: integer `42`, expected
    /// a string`) and the handler does not run. Give [`Tool::parameters`] too, so that the
    /// model knows the shape. Otherwise as [`Tool::new`].
    pub fn typed<A, F, Fut>(name: impl Into<String>, description: impl Into<String>, f: F) -> Self
    where
        A: DeserializeOwned + 'static,
        F: Fn(A, S::Context) -> Fut,
        S::Threads: HoldsHandler<Typed<A>, S::Context, F, Fut>,
    {
        Tool::built::<Typed<A>, F, Fut>(name, description, f)
    }

    fn built<As: Arguments, F, Fut>(
        name: impl Into<String>,
        description: impl Into<String>,
        f: F,
    ) -> Self
    where
        S::Threads: HoldsHandler<As, S::Context, F, Fut>,
    {
        let handler = <S::Threads as HoldsHandler<As, S::Context, F, Fut>>::handler(f);
        Tool::from_handler(name, description, handler)
    }

    /// A tool whose handler is already erased (the shell's own tools: a JS function, a page
    /// tool). Otherwise as [`Tool::new`].
    pub fn from_handler(
        name: impl Into<String>,
        description: impl Into<String>,
        handler: Handler<S>,
    ) -> Self {
        Tool {
            parts: ToolParts {
                def: ToolDef::new(ToolSpec {
                    name: name.into(),
                    description: description.into(),
                    parameters: None,
                }),
                handler,
                annotations: None,
                expects_response: true,
            },
        }
    }

    /// The JSON Schema of the arguments; calls whose arguments fail it are answered
    /// `is_error` without running the handler.
    pub fn parameters(mut self, schema: Value) -> Self {
        self.parts.def.spec.parameters = Some(schema);
        self
    }

    /// The local deadline of one call (default 30 s): past it the call is answered "timed out
    /// after N ms" and the handler's context is cancelled.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.parts.def.timeout_ms = Some(timeout.as_millis() as u64);
        self
    }

    /// At most this many calls per agent run; later ones get an `is_error` result.
    pub fn max_calls_per_run(mut self, max: u32) -> Self {
        self.parts.def.max_calls_per_run = Some(max);
        self
    }

    /// Asserts the arguments' `format`s (date-time, date, time, email, uri, uuid, ipv4, ipv6)
    /// instead of reading them as annotations, as JSON Schema 2020-12 does by default
    /// (default false).
    pub fn assert_formats(mut self, on: bool) -> Self {
        self.parts.def.assert_formats = on;
        self
    }

    /// WebMCP annotations (`{ "readOnlyHint": true }`), passed to `registerTool` when a page
    /// exposes the tool to WebMCP; nothing reads them otherwise (a worker has no WebMCP).
    pub fn annotations(mut self, annotations: Value) -> Self {
        self.parts.annotations = Some(json_text(&annotations));
        self
    }

    /// Over a voice agent's socket (Cartesia, ElevenLabs; a page's `WsTools`): whether the
    /// platform waits for the result (default true). Nothing reads it over the Sessions API.
    pub fn expects_response(mut self, expects: bool) -> Self {
        self.parts.expects_response = expects;
        self
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.parts.def.spec.name
    }

    /// What the tool is made of, as the shell's transports read it.
    pub fn parts(&self) -> &ToolParts<S> {
        &self.parts
    }

    /// What the tool is made of, to set a part no builder sets (a shell's readers).
    pub fn parts_mut(&mut self) -> &mut ToolParts<S> {
        &mut self.parts
    }

    /// What the tool is made of, moved out.
    pub fn into_parts(self) -> ToolParts<S> {
        self.parts
    }
}

impl<S: Shell> AsRef<ToolDef> for Tool<S> {
    fn as_ref(&self) -> &ToolDef {
        &self.parts.def
    }
}

impl<S: Shell> fmt::Debug for Tool<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let def = &self.parts.def;
        f.debug_struct("Tool")
            .field("name", &def.spec.name)
            .field("description", &def.spec.description)
            .field("parameters", &def.spec.parameters)
            .field("timeout_ms", &def.timeout_ms)
            .field("max_calls_per_run", &def.max_calls_per_run)
            .field("assert_formats", &def.assert_formats)
            .field("annotations", &self.parts.annotations)
            .field("expects_response", &self.parts.expects_response)
            .finish_non_exhaustive()
    }
}
