//! WebMCP exposure, under both faces (`client_tools::webmcp::expose` in `crate::api::webmcp`, the
//! JS API's `exposeToWebMCP` in `js_api::webmcp`): the page's tools offered to an in-browser
//! agent through WebMCP (`document.modelContext.registerTool`), run through the call runtime
//! (the browser does not check arguments: the runtime does), and unregistered when the
//! exposure's signal aborts.
//!
//! The registrations themselves are JS's (src/snippets.js: each tool its own, a swap
//! touching only what changed, the answer's shape per host); this side keeps what is the SDK's:
//! the tool list as the registry checked it, the calls through the runtime, and the client an
//! exposure follows.

use crate::browser::Shared;
use crate::js::set;
use crate::js::JsRefCell;
use crate::runner::{from_json_text, Admitted, Entry, Runner};
use client_tools_core::adapters::registry::{check_name, input_schema, Registry};
use client_tools_core::calls::{Answer, Call, ErrorKind, ResultLimit};
use js_sys::{Array, Function, Object, Promise};
use std::cell::Cell;
use std::future::Future;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use web_sys::AbortSignal;

#[wasm_bindgen(module = "/src/snippets.js")]
extern "C" {
    /// `document.modelContext`, else `navigator.modelContext`, if it can register tools.
    #[wasm_bindgen(js_name = modelContext)]
    pub(crate) fn model_context() -> Option<js_sys::Object>;

    /// One exposure's registrations with the browser.
    type Host;
    #[wasm_bindgen(constructor, js_class = "Exposure")]
    fn new(model_context: &JsValue, run: &Function) -> Host;
    /// Registers a list of tools in place of the one before; rejects with the text naming a
    /// tool the browser refused.
    #[wasm_bindgen(method)]
    fn update(this: &Host, tools: &Array) -> Promise;
    /// `update` for a followed client's new tools, warning of a refusal (`followFailed`).
    #[wasm_bindgen(method)]
    fn follow(this: &Host, tools: &Array);
    /// Warns that a followed client's new tools were not registered, and `why`: nobody awaits
    /// them.
    #[wasm_bindgen(js_name = followFailed)]
    fn follow_failed(why: &str);
    /// Settles once the latest list is registered.
    #[wasm_bindgen(method)]
    fn settled(this: &Host) -> Promise;
    #[wasm_bindgen(method)]
    fn stop(this: &Host);
    /// The names the latest list registered (an array of strings).
    #[wasm_bindgen(method, getter)]
    fn names(this: &Host) -> Array;
}

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
    fn offered(&self) -> Option<Registry<Entry>> {
        let shared = self.shared.upgrade()?;
        let mut tools = Registry::new();
        for (i, t) in shared.offered().iter().enumerate() {
            // The names are unique: the client's scopes made them so.
            let _ = tools.register(&format!("tools[{i}]"), t.parts().def.clone(), Entry::of(t));
        }
        Some(tools)
    }

    /// Declares the scope changes made so far (the first half of the ordering rule: a call's
    /// answer waits for the tools its handler put in place).
    fn flush(&self) {
        if let Some(shared) = self.shared.upgrade() {
            shared.flush_scopes();
        }
    }

    /// The exposures that follow the client, still live.
    fn exposures(&self) -> Vec<Rc<Exposure>> {
        let mut exposures = self.exposures.borrow_mut();
        exposures.retain(|w| w.strong_count() > 0);
        exposures.iter().filter_map(Weak::upgrade).collect()
    }

    /// The client offers other tools: the exposures that follow it register them instead.
    fn offer_changed(&self) {
        for exposure in self.exposures() {
            let Some(tools) = self.offered() else { return };
            match exposure.listed(tools) {
                Ok(list) => exposure.host.follow(&list),
                Err(e) => follow_failed(&crate::js::string_prop(&e, "message")),
            }
        }
    }
}

/// One `exposeToWebMCP`: its tools (swapped when a followed client's tools change), the
/// runtime their calls go through, and its registrations (JS's).
struct Exposure {
    host: Host,
    prefix: String,
    runner: Rc<Runner>,
    tools: JsRefCell<Registry<Entry>>,
    /// The client it follows, if it follows one.
    follows: Weak<Followed>,
    /// Counts tool lists (each is a run for `maxCallsPerRun`) and calls (their ids).
    generations: Cell<u64>,
    calls: Cell<u64>,
    /// The app signal's listener.
    on_abort: JsRefCell<Option<AbortListener>>,
}

thread_local! {
    /// The registered clients' followed state, by client key: weak, and a client's entry goes
    /// when it leaves or is freed.
    static CLIENTS: JsRefCell<Vec<(usize, Weak<Followed>)>> = const { JsRefCell::new(Vec::new()) };
    /// Exposures with tools registered, until their signal aborts.
    static LIVE: JsRefCell<Vec<Rc<Exposure>>> = const { JsRefCell::new(Vec::new()) };
}

#[cfg(feature = "js-api")]
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

/// The followed state of a Rust `Client`'s `shared` (`client_tools::webmcp::expose`), made on first use
/// and found by its key as a JS client's is; `None` for a client whose state is gone.
pub(crate) fn follow(shared: &Rc<Shared>) -> Option<Rc<Followed>> {
    let key = shared.key();
    if let Some(followed) = followed(key) {
        return Some(followed);
    }
    let followed = Followed::new(shared);
    CLIENTS.with(|c| c.borrow_mut().push((key, followed.clone())));
    followed.upgrade()
}

#[cfg(feature = "js-api")]
/// Marks the JS `client` object with `key`, so `exposeToWebMCP(client)` finds what
/// `followed` follows. Called by `Client.register`.
pub(crate) fn track_client(client: &JsValue, key: usize, followed: Weak<Followed>) {
    let _ = js_sys::Reflect::set(client, &key_symbol(), &JsValue::from_f64(key as f64));
    forget_client(key);
    CLIENTS.with(|c| c.borrow_mut().push((key, followed)));
}

/// Waits until every exposure that follows the client `key` has registered the client's
/// latest tools: `setTools` resolves once WebMCP holds the new list too (the ordering rule).
pub(crate) async fn registered(key: usize) {
    let Some(followed) = followed(key) else {
        return;
    };
    let exposures = followed.exposures();
    drop(followed);
    for exposure in exposures {
        let _ = crate::js::promise::wait(&exposure.host.settled()).await;
    }
}

#[cfg(feature = "js-api")]
/// The client `key` left: `exposeToWebMCP` no longer finds it (the exposures that follow it
/// keep what they registered).
pub(crate) fn forget_client(key: usize) {
    CLIENTS.with(|c| {
        c.borrow_mut()
            .retain(|(k, w)| *k != key && w.strong_count() > 0)
    });
}

impl Exposure {
    /// Takes `tools` as the list on offer (a new run) and writes it as the host registers it:
    /// `{ name, description, inputSchema, annotations? }` each. Fails with an `invalid_option`
    /// `Error` naming a name the prefix breaks.
    fn listed(&self, tools: Registry<Entry>) -> Result<Array, JsValue> {
        let list = Array::new();
        for (i, (def, entry)) in tools.defs().iter().zip(tools.handlers()).enumerate() {
            let name = format!("{}{}", self.prefix, def.spec.name);
            check_name(&format!("tools[{i}].name with the prefix"), &name)
                .map_err(|e| crate::js::invalid(&e.to_string()))?;
            // Chromium refuses an empty description; the name is what the model would go by.
            let description = match def.spec.description.as_str() {
                "" => def.spec.name.as_str(),
                d => d,
            };
            let tool = Object::new();
            set(&tool, "name", &name.into());
            set(&tool, "description", &description.into());
            set(&tool, "inputSchema", &from_json_text(&input_schema(def)));
            if let Some(annotations) = entry.annotations.as_deref() {
                set(&tool, "annotations", &from_json_text(annotations));
            }
            list.push(&tool);
        }
        drop(self.tools.replace(tools));
        self.generations.set(self.generations.get() + 1);
        Ok(list)
    }

    /// One call from the agent: through the runtime; resolves a success's text, rejects with
    /// an error's. Each tool list is a run (for `maxCallsPerRun`).
    fn execute(self: &Rc<Self>, name: &str, input: &JsValue) -> Promise {
        let tool = name.strip_prefix(self.prefix.as_str()).unwrap_or(name);
        let run = &format!("webmcp-{}", self.generations.get());
        let n = self.calls.get() + 1;
        self.calls.set(n);
        let call_id = format!("webmcp-{n}");
        let args = match crate::js::json::read_args(input) {
            Ok(args) => args,
            Err(message) => return written(Answer::error(ErrorKind::InvalidArguments, message)),
        };
        let call = Call {
            call_id: &call_id,
            run_id: run,
            tool,
        };
        let outcome = match self.runner.run(call, args, &self.tools, None, None) {
            Admitted::Running(outcome) => outcome,
            Admitted::Answered(answer) => return written(answer),
            Admitted::Duplicate => return no_longer_offered(),
        };
        let follows = self.follows.clone();
        crate::js::promise::from_future(Box::pin(async move {
            let answer = outcome.await;
            // The scope changes the handler made are declared (the host registers them
            // before the answer goes back).
            if let Some(followed) = follows.upgrade() {
                followed.flush();
            }
            match answer {
                Some(answer) => text_of(answer),
                None => Err("the call was aborted.".into()),
            }
        }))
    }

    /// The app's signal aborted (or the first list was refused): every tool is unregistered
    /// and no client is followed.
    fn stop(self: &Rc<Self>) {
        self.host.stop();
        // The listener is dropped after this call returns: this may run inside it.
        let on_abort = self.on_abort.borrow_mut().take();
        let this = self.clone();
        crate::js::promise::spawn(Box::pin(async move {
            drop(on_abort);
            LIVE.with(|l| l.borrow_mut().retain(|e| !Rc::ptr_eq(e, &this)));
        }));
    }
}

/// An answer as the host takes it: a success's text, or an error's as the rejection.
fn text_of(answer: Answer) -> Result<JsValue, JsValue> {
    let (text, is_error) = answer.into_text(ResultLimit::None);
    match is_error {
        true => Err(text.into()),
        false => Ok(text.into()),
    }
}

fn written(answer: Answer) -> Promise {
    match text_of(answer) {
        Ok(text) => Promise::resolve(&text),
        Err(text) => Promise::reject(&text),
    }
}

/// The answer of a call on a tool the exposure no longer offers.
fn no_longer_offered() -> Promise {
    Promise::reject(&"this tool is no longer offered.".into())
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
/// caller). `None` when `signal` has aborted already (nothing registers). Fails with an
/// `invalid_option` `Error` for a client with no tools to follow, or one naming a name the
/// prefix breaks, or (the future) a `rejected` one naming a tool the browser refused.
pub(crate) fn expose(
    model_context: JsValue,
    source: Source,
    prefix: String,
    signal: Option<AbortSignal>,
    done: fn(Array) -> JsValue,
) -> Result<Option<impl Future<Output = Result<JsValue, JsValue>> + 'static>, JsValue> {
    let (client, tools) = match source {
        // The scope changes made so far are declared first: what is offered is what registers.
        Source::Client(followed) => {
            let tools = followed.as_ref().and_then(|f| {
                f.flush();
                f.offered()
            });
            (followed, tools)
        }
        Source::Tools(tools) => (None, Some(tools)),
    };
    let Some(tools) = tools else {
        return Err(crate::js::invalid(
            "source: this client has no tools to follow",
        ));
    };
    if signal
        .as_ref()
        .is_some_and(|s| crate::js::bool_prop(s, "aborted"))
    {
        return Ok(None);
    }
    let exposure = Rc::new_cyclic(|weak: &Weak<Exposure>| {
        let weak = weak.clone();
        // The browser holds it (and JS's collector frees it): a call after the exposure is
        // gone is told the tool is no longer offered.
        let run = Closure::<crate::js::Callback>::new(move |name: JsValue, input| {
            match weak.upgrade() {
                Some(exposure) => exposure.execute(&name.as_string().unwrap_or_default(), &input),
                None => no_longer_offered(),
            }
            .into()
        });
        Exposure {
            host: Host::new(&model_context, run.into_js_value().unchecked_ref()),
            prefix,
            runner: Runner::new(),
            tools: JsRefCell::new(Registry::new()),
            follows: client.as_ref().map(Rc::downgrade).unwrap_or_default(),
            generations: Cell::new(0),
            calls: Cell::new(0),
            on_abort: JsRefCell::new(None),
        }
    });
    let list = exposure.listed(tools)?;
    if let Some(signal) = &signal {
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
    if let Some(followed) = &client {
        followed
            .exposures
            .borrow_mut()
            .push(Rc::downgrade(&exposure));
    }
    // The exposure lives as long as its registrations: until the signal aborts.
    LIVE.with(|l| l.borrow_mut().push(exposure.clone()));
    let registering = exposure.host.update(&list);
    Ok(Some(async move {
        if let Err(refused) = crate::js::promise::wait(&registering).await {
            exposure.stop();
            let refused = refused.as_string().unwrap_or_default();
            return Err(crate::js::error(
                client_tools_core::api::ErrorKind::Rejected,
                &refused,
            ));
        }
        // A change of the client's tools meanwhile replaced the list: what it registered.
        let _ = crate::js::promise::wait(&exposure.host.settled()).await;
        Ok(done(exposure.host.names()))
    }))
}
