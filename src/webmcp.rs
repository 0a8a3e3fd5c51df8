//! WebMCP exposure (the JS API's `exposeToWebMCP`: `js_api::webmcp`): the page's tools offered to an in-browser agent through WebMCP
//! (`document.modelContext.registerTool`), run through the call runtime (the browser does not
//! check arguments: the runtime does), and unregistered when the app's signal aborts. A
//! success is answered as its text; an error as MCP's `{ content: [{ type: "text", text }],
//! isError: true }` (a throw would lose its message in Chromium, and a plain string reads as a
//! success to an MCP client on the MCP-B polyfill; Chromium's agent reads the object as its
//! JSON text).
//!
//! What Chromium 156 and the MCP-B polyfill offer: `registerTool(tool, { signal })` returning
//! a promise, unregistering when that signal aborts; no `unregisterTool`. Each tool has its own
//! registration (and signal): a swap unregisters only the tools that went or changed and
//! registers only the new or changed ones, so a tool kept across a swap stays registered (a
//! call in flight on it is never cut off) and an MCP client hears one `list_changed` per tool
//! that changed (MCP-B sends one per registration).

use crate::browser::Shared;
use crate::js::JsRefCell;
use crate::runner::{from_json_text, Entry, Runner};
use client_tools_core::adapters::registry::{check_name, input_schema, Registry};
use client_tools_core::calls::{Admission, Answer, Call, ErrorKind, ResultLimit};
use client_tools_core::quote::Quoted;
use js_sys::{Object, Promise, Reflect};
use std::cell::Cell;
use std::future::Future;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use web_sys::{AbortController, AbortSignal};

/// A registered tool's `execute(input)`, in the SDK's one closure shape (see `js::Callback`).
type ExecuteFn = Closure<crate::js::Callback>;

/// The listener on the app's signal that stops the exposure when it aborts (removed when dropped).
type AbortListener = crate::browser::guards::Listener;

/// What `exposeToWebMCP(client)` follows of a client: its tools on offer (the union of its
/// scopes) and the exposures that follow it. The client owns it; the table below only finds
/// it, weakly, so a client that is freed takes its tools (handlers included) with it.
pub(crate) struct Followed {
    shared: Weak<Shared>,
    exposures: JsRefCell<Vec<Weak<Exposure>>>,
}

impl Followed {
    /// Follows the tools `shared` offers: each change is registered by the exposures. The
    /// client owns it (through the hook it is told by); the result is for finding it.
    pub(crate) fn new(shared: &Rc<Shared>) -> Weak<Followed> {
        let followed = Rc::new(Followed {
            shared: Rc::downgrade(shared),
            exposures: JsRefCell::default(),
        });
        let weak = Rc::downgrade(&followed);
        shared.on_offer(Rc::new(move || followed.offer_changed()));
        weak
    }

    /// The tools the client offers now, unless it is gone.
    fn offered(&self) -> Option<Rc<Registry<Entry>>> {
        let shared = self.shared.upgrade()?;
        let mut tools = Registry::new();
        for (i, t) in shared.offered().iter().enumerate() {
            // The names are unique: the client's scopes made them so.
            let _ = tools.register(&format!("tools[{i}]"), t.parts().def.clone(), Entry::of(t));
        }
        Some(Rc::new(tools))
    }

    /// Declares the scope changes made so far (the first half of the ordering rule: a call's
    /// answer waits for the tools its handler put in place).
    fn flush(&self) {
        if let Some(shared) = self.shared.upgrade() {
            shared.flush_scopes();
        }
    }

    /// The client offers other tools: the exposures that follow it register them instead.
    fn offer_changed(&self) {
        let Some(tools) = self.offered() else { return };
        self.exposures.borrow_mut().retain(|w| w.strong_count() > 0);
        let mut live = Vec::new();
        for w in self.exposures.borrow().iter() {
            live.extend(w.upgrade());
        }
        for exposure in live {
            let (tools, this) = (tools.clone(), exposure.clone());
            let done = crate::js::promise::from_future(Box::pin(async move {
                if let Err(e) = this.register_all(tools).await {
                    let message = crate::js::string_prop(&e, "message");
                    warn(&format!(
                        "exposeToWebMCP: the client's new tools: {message}"
                    ));
                }
                Ok(JsValue::UNDEFINED)
            }));
            *exposure.registering.borrow_mut() = Some(done);
        }
    }
}

/// One `exposeToWebMCP`: its tools (swapped when a followed client's tools change), the
/// runtime their calls go through, and the signal of the current registrations.
struct Exposure {
    model_context: JsValue,
    prefix: String,
    runner: Rc<Runner>,
    tools: JsRefCell<Rc<Registry<Entry>>>,
    /// The client it follows, if it follows one.
    follows: Weak<Followed>,
    /// Settles once the latest tool list of the followed client is registered.
    registering: JsRefCell<Option<Promise>>,
    /// The names the latest tool list registered, once it has.
    names: JsRefCell<Vec<String>>,
    /// Each tool registered with the browser (or being registered), by its prefixed name.
    registered: JsRefCell<Vec<Registered>>,
    /// Counts tool lists (each is a run for `maxCallsPerRun`) and calls (their ids).
    generations: Cell<u64>,
    calls: Cell<u64>,
    stopped: Cell<bool>,
    /// The app signal's listener.
    on_abort: JsRefCell<Option<AbortListener>>,
}

/// One tool's registration with the browser: what was registered (to tell a change), the
/// controller whose abort unregisters it, and its `execute` function.
struct Registered {
    name: String,
    /// The tool's description, input schema and annotations as registered, as one text.
    shape: String,
    controller: AbortController,
    _execute: ExecuteFn,
}

impl Drop for Registered {
    /// Unregisters the tool (aborting twice is harmless).
    fn drop(&mut self) {
        let _ = crate::js::call_method(&self.controller, "abort", &[]);
    }
}

thread_local! {
    /// The registered clients' followed state, by client key: weak, and a client's entry goes
    /// when it leaves or is freed.
    static CLIENTS: JsRefCell<Vec<(usize, Weak<Followed>)>> = const { JsRefCell::new(Vec::new()) };
    /// Exposures with tools registered: the browser holds their `execute` closures.
    static LIVE: JsRefCell<Vec<Rc<Exposure>>> = const { JsRefCell::new(Vec::new()) };
}

/// The property a `Client` object carries its key under.
pub(crate) fn key_symbol() -> JsValue {
    js_sys::Symbol::for_("client-tools.client").into()
}

/// The followed state of the client `key`, if it is registered and not freed; prunes the
/// entries of freed clients.
pub(crate) fn followed(key: usize) -> Option<Rc<Followed>> {
    CLIENTS.with(|c| {
        let mut c = c.borrow_mut();
        c.retain(|(_, w)| w.strong_count() > 0);
        c.iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, w)| w.upgrade())
    })
}

/// Marks the JS `client` object with `key`, so `exposeToWebMCP(client)` finds what
/// `followed` follows. Called by `Client.register`.
pub(crate) fn track_client(client: &JsValue, key: usize, followed: Weak<Followed>) {
    let _ = Reflect::set(client, &key_symbol(), &JsValue::from_f64(key as f64));
    forget_client(key);
    CLIENTS.with(|c| c.borrow_mut().push((key, followed)));
}

/// Waits until every exposure that follows the client `key` has registered the client's
/// latest tools: `setTools` resolves once WebMCP holds the new list too (the ordering rule).
pub(crate) async fn registered(key: usize) {
    let Some(followed) = followed(key) else {
        return;
    };
    let mut exposures = Vec::new();
    for w in followed.exposures.borrow().iter() {
        exposures.extend(w.upgrade());
    }
    drop(followed);
    for exposure in exposures {
        exposure.registered_all().await;
    }
}

/// The client `key` left: `exposeToWebMCP` no longer finds it (the exposures that follow it
/// keep what they registered).
pub(crate) fn forget_client(key: usize) {
    CLIENTS.with(|c| {
        c.borrow_mut()
            .retain(|(k, w)| *k != key && w.strong_count() > 0)
    });
}

fn warn(message: &str) {
    let console = prop(&js_sys::global(), "console");
    let _ = crate::js::call_method(&console, "warn", &[&message.into()]);
}

/// `document.modelContext`, else `navigator.modelContext`, if it can register tools.
pub(crate) fn model_context() -> Option<JsValue> {
    let global = js_sys::global();
    for owner in ["document", "navigator"] {
        let mc = prop(&prop(&global, owner), "modelContext");
        if mc.is_object() && prop(&mc, "registerTool").is_function() {
            return Some(mc);
        }
    }
    None
}

use crate::js::{get as prop, set};

impl Exposure {
    /// Registers `tools` in place of the list registered before: the tools that went or changed
    /// are unregistered, the new or changed ones registered, the others kept as they are.
    /// `names` holds what it registered unless a newer list replaced it meanwhile. Fails with
    /// an `invalid_option` `Error` naming a name the prefix breaks, or a `rejected` one naming
    /// a refusal of the browser.
    async fn register_all(self: &Rc<Self>, tools: Rc<Registry<Entry>>) -> Result<(), JsValue> {
        for (i, name) in tools.names().iter().enumerate() {
            check_name(
                &format!("tools[{i}].name with the prefix"),
                &format!("{}{name}", self.prefix),
            )
            .map_err(|e| crate::js::invalid(&e.to_string()))?;
        }
        if self.stopped.get() {
            return Ok(());
        }
        *self.tools.borrow_mut() = tools.clone();
        let generation = self.generations.get() + 1;
        self.generations.set(generation);
        let mut wanted = Vec::new();
        for (def, entry) in tools.defs().iter().zip(tools.handlers()) {
            let tool = Object::new();
            set(
                &tool,
                "name",
                &format!("{}{}", self.prefix, def.spec.name).into(),
            );
            // Chromium refuses an empty description; the name is what the model would go by.
            let description = match def.spec.description.as_str() {
                "" => def.spec.name.as_str(),
                d => d,
            };
            let schema = input_schema(def).to_string();
            let annotations = entry.annotations.as_deref().unwrap_or("");
            let shape = format!("{description}\n{schema}\n{annotations}");
            set(&tool, "description", &description.into());
            set(&tool, "inputSchema", &from_json_text(&schema));
            if !annotations.is_empty() {
                set(&tool, "annotations", &from_json_text(annotations));
            }
            wanted.push((def.spec.name.clone(), tool, shape));
        }
        // The tools that went or changed are unregistered (dropped: their signals abort)
        // before anything registers, so a changed tool's name is free again.
        let gone: Vec<Registered> = {
            let mut registered = self.registered.borrow_mut();
            let (kept, gone) = std::mem::take(&mut *registered).into_iter().partition(|r| {
                wanted.iter().any(|(name, _, shape)| {
                    r.name == format!("{}{name}", self.prefix) && r.shape == *shape
                })
            });
            *registered = kept;
            gone
        };
        drop(gone);
        for (tool_name, tool, shape) in wanted {
            if self.generations.get() != generation || self.stopped.get() {
                return Ok(()); // a later list replaced this one, or the app's signal aborted
            }
            let name = format!("{}{tool_name}", self.prefix);
            if self.registered.borrow().iter().any(|r| r.name == name) {
                continue; // kept as it is
            }
            let weak = Rc::downgrade(self);
            let execute = ExecuteFn::new(move |input: JsValue, _| match weak.upgrade() {
                Some(exposure) => exposure.execute(&tool_name, &input).into(),
                None => Promise::resolve(&no_longer_offered()).into(),
            });
            set(&tool, "execute", execute.as_ref());
            let controller = AbortController::new().map_err(|_| {
                crate::js::error(
                    client_tools_core::api::ErrorKind::Rejected,
                    "AbortController is missing",
                )
            })?;
            let options = Object::new();
            set(&options, "signal", &crate::js::get(&controller, "signal"));
            // Kept from now on, so that a stop or a newer list meanwhile unregisters it too.
            self.registered.borrow_mut().push(Registered {
                name: name.clone(),
                shape,
                controller,
                _execute: execute,
            });
            let done =
                crate::js::call_method(&self.model_context, "registerTool", &[&tool, &options]);
            let done = match done {
                Ok(r) => crate::js::promise::wait(&r).await.map(|_| ()),
                Err(e) => Err(e),
            };
            if let Err(e) = done {
                if self.generations.get() != generation || self.stopped.get() {
                    return Ok(()); // unregistered by the list that replaced this one, or the app
                }
                // Taken out first: dropping it calls JS (its controller's abort).
                let refused = {
                    let mut registered = self.registered.borrow_mut();
                    let at = registered.iter().position(|r| r.name == name);
                    at.map(|i| registered.remove(i))
                };
                drop(refused);
                return Err(crate::js::error(
                    client_tools_core::api::ErrorKind::Rejected,
                    &format!(
                        "registerTool({}) was refused: {}",
                        Quoted(&name),
                        error_text(&e)
                    ),
                ));
            }
        }
        *self.names.borrow_mut() = self
            .registered
            .borrow()
            .iter()
            .map(|r| r.name.clone())
            .collect();
        Ok(())
    }

    /// One call from the agent: through the runtime, answered as [`answer`] writes it. Each
    /// tool list is a run (for `maxCallsPerRun`).
    fn execute(self: &Rc<Self>, tool: &str, input: &JsValue) -> Promise {
        let run = &format!("webmcp-{}", self.generations.get());
        let n = self.calls.get() + 1;
        self.calls.set(n);
        let call_id = format!("webmcp-{n}");
        let args = match crate::js::json::read_args(input) {
            Ok(args) => args,
            Err(message) => {
                let answer = Answer::error(ErrorKind::InvalidArguments, message);
                return Promise::resolve(&written(answer));
            }
        };
        let tools = self.tools.borrow().clone();
        let call = Call {
            call_id: &call_id,
            run_id: run,
            tool,
        };
        let admitted =
            self.runner
                .runtime
                .borrow_mut()
                .admit(call, args, tools.defs(), Runner::now());
        let outcome = match (admitted, tools.get(tool)) {
            (
                Admission::Run {
                    arguments,
                    deadline,
                },
                Some((_, entry)),
            ) => self.runner.start(
                &call_id,
                run,
                tool,
                &entry.handler,
                arguments,
                deadline,
                None,
            ),
            (Admission::Answer(answer), _) => return Promise::resolve(&written(answer)),
            _ => return Promise::resolve(&no_longer_offered()),
        };
        let this = self.clone();
        crate::js::promise::from_future(Box::pin(async move {
            let answer = outcome.await;
            this.settle_tools().await;
            Ok(match answer {
                Some(answer) => written(answer),
                None => error_result("the call was aborted."),
            })
        }))
    }

    /// The ordering rule for WebMCP: the scope changes a handler made before it settled are
    /// registered before its answer goes back, so the agent's next look at the page's tools
    /// finds the new screen's.
    async fn settle_tools(&self) {
        let Some(followed) = self.follows.upgrade() else {
            return;
        };
        followed.flush();
        drop(followed);
        self.registered_all().await;
    }

    /// Waits until the latest tool list of the followed client is registered: until no newer
    /// list replaced the one awaited (a refusal was warned of already).
    async fn registered_all(&self) {
        loop {
            let Some(registering) = self.registering.borrow().clone() else {
                return;
            };
            let _ = crate::js::promise::wait(&registering).await;
            let same = (self.registering.borrow().as_ref())
                .is_some_and(|now| JsValue::from(now) == JsValue::from(&registering));
            if same {
                return;
            }
        }
    }

    /// The app's signal aborted: every tool is unregistered and no client is followed.
    fn stop(self: &Rc<Self>) {
        self.stopped.set(true);
        // Unregistered at once (their signals abort); their `execute` functions and the
        // listener are dropped after this call returns: this may run inside the signal's
        // listener, and the signal aborts only once.
        let registered = std::mem::take(&mut *self.registered.borrow_mut());
        for r in &registered {
            let _ = crate::js::call_method(&r.controller, "abort", &[]);
        }
        let on_abort = self.on_abort.borrow_mut().take();
        let this = self.clone();
        crate::js::promise::spawn(Box::pin(async move {
            drop((registered, on_abort));
            LIVE.with(|l| l.borrow_mut().retain(|e| !Rc::ptr_eq(e, &this)));
        }));
    }
}

/// An answer as the agent reads it: a success as its text, an error as [`error_result`].
fn written(answer: Answer) -> JsValue {
    let (text, is_error) = answer.into_text(ResultLimit::None);
    if is_error {
        error_result(&text)
    } else {
        text.into()
    }
}

/// An error as MCP's tool result: `{ content: [{ type: "text", text }], isError: true }`.
fn error_result(text: &str) -> JsValue {
    let part = Object::new();
    set(&part, "type", &"text".into());
    set(&part, "text", &text.into());
    let out = Object::new();
    set(&out, "content", &js_sys::Array::of1(&part));
    set(&out, "isError", &true.into());
    out.into()
}

/// The answer of a call on a tool the exposure no longer offers.
fn no_longer_offered() -> JsValue {
    error_result("this tool is no longer offered.")
}

fn error_text(e: &JsValue) -> String {
    match e.is_instance_of::<js_sys::Error>() {
        true => format!(
            "{}: {}",
            crate::js::string_prop(e, "name"),
            crate::js::string_prop(e, "message")
        ),
        false => e
            .as_string()
            .unwrap_or_else(|| "an unknown error".to_owned()),
    }
}

/// Where an exposure's tools come from.
pub(crate) enum Source {
    /// A fixed list (a tool array, or a registry's tools).
    Tools(Registry<Entry>),
    /// A client's tools on offer, followed through `setTools` and its scopes; `None` for a
    /// client that left or was freed.
    Client(Option<Rc<Followed>>),
}

/// Offers `source`'s tools to the browser's agent through `model_context` (WebMCP), their
/// names with `prefix`, until `signal` aborts. What is done at once: a followed client's scope
/// changes declared, the exposure made and following the client; the future registers the
/// tools and gives `done` of their names as registered (the caller's outcome, written by the
/// caller: one future, not one awaiting another, which costs the .wasm ~300 bytes). `None`
/// when `signal` has aborted already (nothing registers). Fails with an `invalid_option` `Error` for a client with no tools to
/// follow, or (the future) one naming a name the prefix breaks, or a `rejected` one naming a
/// tool the browser refused.
pub(crate) fn expose(
    model_context: JsValue,
    source: Source,
    prefix: String,
    signal: Option<AbortSignal>,
    done: fn(&[String]) -> JsValue,
) -> Result<Option<impl Future<Output = Result<JsValue, JsValue>> + 'static>, JsValue> {
    let (client, tools) = match source {
        // The scope changes made so far are declared first: what is offered is what registers.
        Source::Client(followed) => {
            let tools = followed.as_ref().and_then(|f| {
                f.flush();
                f.offered()
            });
            (Some(followed), tools)
        }
        Source::Tools(tools) => (None, Some(Rc::new(tools))),
    };
    let Some(tools) = tools else {
        return Err(crate::js::invalid(
            "source: this client has no tools to follow",
        ));
    };
    let exposure = Rc::new(Exposure {
        model_context,
        prefix,
        runner: Runner::new(),
        tools: JsRefCell::new(Rc::new(Registry::new())),
        follows: match &client {
            Some(Some(followed)) => Rc::downgrade(followed),
            _ => Weak::new(),
        },
        registering: JsRefCell::new(None),
        names: JsRefCell::new(Vec::new()),
        registered: JsRefCell::new(Vec::new()),
        generations: Cell::new(0),
        calls: Cell::new(0),
        stopped: Cell::new(false),
        on_abort: JsRefCell::new(None),
    });
    if let Some(signal) = &signal {
        if crate::js::bool_prop(signal, "aborted") {
            return Ok(None);
        }
        let weak = Rc::downgrade(&exposure);
        let on_abort = AbortListener::new(signal.as_ref(), "abort", move |_| {
            if let Some(e) = weak.upgrade() {
                e.stop();
            }
        });
        *exposure.on_abort.borrow_mut() = on_abort;
    }
    // Followed until the signal aborts; without one, for the page's life. From now on, so a
    // change while the first list registers replaces it.
    if let Some(Some(followed)) = &client {
        followed
            .exposures
            .borrow_mut()
            .push(Rc::downgrade(&exposure));
    }
    Ok(Some(async move {
        (exposure.register_all(tools).await).inspect_err(|_| exposure.stop())?;
        // A change of the client's tools meanwhile replaced the list: what it registered.
        if exposure.generations.get() != 1 {
            exposure.settle_tools().await;
        }
        // The exposure lives as long as its registrations: the browser holds its closures.
        if !exposure.stopped.get() {
            LIVE.with(|l| l.borrow_mut().push(exposure.clone()));
        }
        let registered = done(&exposure.names.borrow());
        Ok(registered)
    }))
}
