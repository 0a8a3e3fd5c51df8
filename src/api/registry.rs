//! `client_tools::Registry`, the Rust face of the JS `ToolRegistry`: tools written once,
//! exported for each agent API and run by name through the call runtime (`crate::registry`,
//! which the JS class runs on too).

use super::Tool;
use crate::js::JsRefCell;
use crate::registry::{self, Execute, Forget, Running, Started, Tools};
use crate::runner::Entry;
use client_tools_core::adapters::registry::Registry as Tools_;
use client_tools_core::api::{Error, ErrorKind};
use client_tools_core::calls::Answer;
use client_tools_core::engine::validate_tool_refs;
use client_tools_core::protocol::validate::ValidationError;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;
use wasm_bindgen::JsValue;
use web_sys::AbortSignal;

/// Tools written once: exported for OpenAI, Anthropic and MCP, and run by name with the same
/// argument checks, deadlines and per-run limits as a Sessions call. The JS `ToolRegistry`
/// with the same meaning; `to_*` give the JSON the JS methods give.
///
/// ```no_run
/// use client_tools::{Answer, ExecuteOptions, Registry, Tool};
/// use serde_json::json;
///
/// async fn turn() -> Result<(), client_tools::Error> {
///     let registry = Registry::new(vec![
///         Tool::new("get_time", "The page's clock.", |_args, _ctx| async move { "12:00" }),
///     ])?;
///     // The tools of a Chat Completions request; `to_anthropic()`, `to_mcp()` alike.
///     let _request = json!({"model": "gpt-4.1", "tools": registry.to_openai()});
///     // A call the model made, run as a Sessions call runs (schema, timeout, per-run limit).
///     let options = ExecuteOptions { run_id: Some("run-1".into()), ..Default::default() };
///     match registry.execute("get_time", json!({}), options).await? {
///         Answer::Ok(content) => { let _ = content; /* the tool message's content */ }
///         Answer::Err { message, .. } => { let _ = message; /* sent as an error result */ }
///     }
///     Ok(())
/// }
/// ```
pub struct Registry {
    tools: Tools<Rc<Slot>>,
}

/// How [`Registry::execute`] runs a call. Every field is optional (`..Default::default()`).
#[derive(Clone, Default)]
pub struct ExecuteOptions {
    /// The caller's id of the call: a repeated id gets the first call's answer and nothing
    /// runs again (a call that failed with an [`Error`] is forgotten, so a retry runs). Not
    /// empty.
    pub call_id: Option<String>,
    /// The agent run the call counts in, for the tool's `max_calls_per_run`; each call is its
    /// own run when `None`.
    pub run_id: Option<String>,
    /// The caller's deadline, from now: it caps the tool's timeout (the call is answered
    /// "timed out" then, its handler's signal aborted).
    pub deadline: Option<Duration>,
    /// Aborting it abandons the call: its handler is cancelled and `execute` fails with
    /// [`ErrorKind::Aborted`].
    pub signal: Option<AbortSignal>,
}

impl Registry {
    /// A registry holding `tools`. Fails naming the first bad tool and the rule it breaks
    /// (`tools[1].name: "get-weather": character '-' …`, `tools[0].timeout: 0 ms, must be at
    /// least 1`, a name given twice).
    pub fn new(tools: Vec<Tool>) -> Result<Registry, Error> {
        Registry::read(tools).map_err(|e| Error::from(e).in_rust_spelling())
    }

    fn read(tools: Vec<Tool>) -> Result<Registry, ValidationError> {
        let mut registry = Tools_::new();
        for (i, tool) in tools.into_iter().enumerate() {
            let parts = tool.into_parts();
            let field = format!("tools[{i}]");
            // The runtime's own limits of one tool, named as the tool's place in the list.
            validate_tool_refs(&[&parts.def]).map_err(|mut e| {
                e.field = e.field.replacen("tools[0]", &field, 1);
                e
            })?;
            let entry = Entry {
                handler: parts.handler,
                source: JsValue::UNDEFINED,
                annotations: parts.annotations,
            };
            registry.register(&field, parts.def, entry)?;
        }
        Ok(Registry::of(registry))
    }

    /// A copy of the tools (the handlers shared), for another transport (WebMCP).
    #[cfg(feature = "webmcp")]
    pub(super) fn tools_copy(&self) -> Tools_<Entry> {
        self.tools.tools.borrow().clone()
    }

    /// The tools, for another transport (`TurnTools`): moved out, not copied.
    pub(super) fn into_tools(self) -> Tools_<Entry> {
        self.tools.into_tools()
    }

    fn of(tools: Tools_<Entry>) -> Registry {
        Registry {
            tools: Tools::new(tools),
        }
    }

    /// Whether a tool of that name is registered.
    pub fn has(&self, name: &str) -> bool {
        self.tools.tools.borrow().has(name)
    }

    /// The tools' names, in registration order.
    pub fn names(&self) -> Vec<String> {
        let tools = self.tools.tools.borrow();
        tools.names().into_iter().map(str::to_owned).collect()
    }

    /// A new registry with only the named tools (the handlers shared, not copied).
    pub fn filtered<S: AsRef<str>>(&self, names: &[S]) -> Registry {
        Registry::of(self.tools.tools.borrow().filtered(&owned(names)))
    }

    /// A new registry without the named tools.
    pub fn without<S: AsRef<str>>(&self, names: &[S]) -> Registry {
        Registry::of(self.tools.tools.borrow().without(&owned(names)))
    }

    /// OpenAI Chat Completions' `tools`: `[{"type": "function", "function": {name,
    /// description, parameters}}]`.
    pub fn to_openai(&self) -> Value {
        json(&self.tools.tools.borrow().to_openai())
    }

    /// OpenAI Responses' `tools`: `[{"type": "function", name, description, parameters}]`.
    pub fn to_openai_responses(&self) -> Value {
        json(&self.tools.tools.borrow().to_openai_responses())
    }

    /// Anthropic Messages' `tools`: `[{name, description, input_schema}]`.
    pub fn to_anthropic(&self) -> Value {
        json(&self.tools.tools.borrow().to_anthropic())
    }

    /// MCP's `tools/list`: `[{name, description, inputSchema}]`.
    pub fn to_mcp(&self) -> Value {
        json(&self.tools.tools.borrow().to_mcp())
    }

    /// Runs the tool `name` with `args` (a JSON object; `Value::Null` is `{}`) as a Sessions
    /// call runs: arguments checked against its schema, its timeout (default 30 s), its
    /// `max_calls_per_run` per [`ExecuteOptions::run_id`]. The call starts now, whether or not
    /// the future is polled; dropping the future does not stop it (abort `signal` for that).
    ///
    /// Its [`Answer`] when the handler returns, throws or is refused (bad arguments, over its
    /// limit, timed out): `Answer::Err` is what the model reads as an error. An [`Error`] for
    /// an unknown name ([`ErrorKind::UnknownTool`], naming the registry's tools), an aborted
    /// `signal` ([`ErrorKind::Aborted`]), an empty `call_id` ([`ErrorKind::InvalidOption`]) or
    /// a `call_id` of a call still running in the runtime ([`ErrorKind::Rejected`]).
    pub fn execute(&self, name: &str, args: Value, options: ExecuteOptions) -> Execution {
        let ExecuteOptions {
            call_id,
            run_id,
            deadline,
            signal,
        } = options;
        if call_id.as_deref() == Some("") {
            let e = Error::invalid_option("call_id", "must be a non-empty string");
            return Execution(Slot::done(Err(e)));
        }
        let (slot, forget) = self.tools.once(call_id, |n| {
            self.start(n, name, args, run_id, deadline, signal.as_ref())
        });
        if let Some(forget) = forget {
            slot.on_error(forget);
        }
        Execution(slot)
    }

    /// `execute` once its options are read: the call numbered `n`.
    fn start(
        &self,
        n: u64,
        name: &str,
        args: Value,
        run_id: Option<String>,
        deadline: Option<Duration>,
        signal: Option<&AbortSignal>,
    ) -> Rc<Slot> {
        if !self.tools.tools.borrow().has(name) {
            let unknown = self.tools.tools.borrow().unknown(name);
            return Slot::done(Err(Error::new(ErrorKind::UnknownTool, unknown)));
        }
        if signal.is_some_and(|s| crate::js::bool_prop(s, "aborted")) {
            return Slot::done(Err(Error::new(ErrorKind::Aborted, registry::aborted(name))));
        }
        let call = Execute {
            n,
            name,
            run_id,
            deadline_ms: deadline.map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            signal,
        };
        let Running { outcome, ended } = match self.tools.run(call, args) {
            Started::Answered(answer) => return Slot::done(Ok(answer)),
            Started::Reused => {
                return Slot::done(Err(Error::new(ErrorKind::Rejected, registry::REUSED)))
            }
            Started::Running(running) => running,
        };
        let (slot, name) = (Slot::new(None), name.to_owned());
        let settled = slot.clone();
        crate::js::promise::spawn(Box::pin(async move {
            let answer = outcome.await;
            ended.forget();
            let answer =
                answer.ok_or_else(|| Error::new(ErrorKind::Aborted, registry::aborted(&name)));
            settled.settle(answer);
        }));
        slot
    }
}

fn owned<S: AsRef<str>>(names: &[S]) -> Vec<String> {
    names.iter().map(|n| n.as_ref().to_owned()).collect()
}

/// The core's JSON text of an export as a value (the core writes it, so it parses).
pub(super) fn json(text: &str) -> Value {
    client_tools_core::json::parse(text).unwrap_or(Value::Null)
}

/// What [`Registry::execute`] returns: completes with the call's answer. Every `execute` that
/// repeated a call id shares the first one's.
#[must_use = "a future does nothing unless awaited (the call runs regardless)"]
pub struct Execution(Rc<Slot>);

impl Future for Execution {
    type Output = Result<Answer, Error>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if let Some(answer) = self.0.answer.borrow().as_ref() {
            return Poll::Ready(answer.clone());
        }
        self.0.wakers.borrow_mut().push(cx.waker().clone());
        Poll::Pending
    }
}

/// One `execute`'s answer, once it comes, and who waits for it.
struct Slot {
    answer: JsRefCell<Option<Result<Answer, Error>>>,
    wakers: JsRefCell<Vec<Waker>>,
    /// Forgets the call's id if it fails (kept until it is answered).
    on_error: JsRefCell<Option<Forget<Rc<Slot>>>>,
}

impl Slot {
    fn new(answer: Option<Result<Answer, Error>>) -> Rc<Slot> {
        Rc::new(Slot {
            answer: JsRefCell::new(answer),
            wakers: JsRefCell::default(),
            on_error: JsRefCell::new(None),
        })
    }

    fn done(answer: Result<Answer, Error>) -> Rc<Slot> {
        Slot::new(Some(answer))
    }

    fn settle(&self, answer: Result<Answer, Error>) {
        let failed = answer.is_err();
        *self.answer.borrow_mut() = Some(answer);
        let forget = self.on_error.take();
        if let Some(forget) = forget.filter(|_| failed) {
            forget.forget();
        }
        for w in self.wakers.take() {
            w.wake();
        }
    }

    /// Runs `forget` if the call fails (now, if it already has).
    fn on_error(&self, forget: Forget<Rc<Slot>>) {
        let answered = self.answer.borrow().as_ref().map(Result::is_err);
        match answered {
            Some(true) => forget.forget(),
            Some(false) => {}
            None => *self.on_error.borrow_mut() = Some(forget),
        }
    }
}
