//! The app's tools as its components declare them: `use_tools(tools)` in a component offers
//! them to the agent while the component is mounted and takes them back in its `on_cleanup`.
//! The tools of every mounted component are declared together, one `PUT` per change: a route
//! change (one page's component unmounts, the next one mounts) is one change, because the
//! declaration is sent from a task that runs once the render is done.
//!
//! A voice agent on the app's own WebSocket is served the same tools ([`Agent::voice`]): its
//! `WsTools` follows every change at once (nothing is declared over the wire; the platform's
//! session configuration takes [`Agent::voice_declarations`]).
//!
//! The same helper goes in a Yew app as a hook (`use_effect_with((), …)` adding the tools and
//! its cleanup removing them) and in Dioxus as `use_hook` + `use_drop`; only `Agent` is needed.

use client_tools::{Client, Dialect, Error, Options, Tool, WsOptions, WsTools};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::{spawn_local, JsFuture};

/// The app's one registration and the tools of its mounted components.
#[derive(Clone, Default)]
pub struct Agent(Rc<State>);

#[derive(Default)]
struct State {
    client: RefCell<Option<Client>>,
    /// The voice agent's socket, served the same tools.
    voice: RefCell<Option<WsTools>>,
    /// Each mounted `use_tools` call's tools, by its id, in mount order.
    scopes: RefCell<Vec<(u64, Vec<Tool>)>>,
    next_scope: Cell<u64>,
    /// Bumped on every change of `scopes`.
    version: Cell<u64>,
    /// A declaration task is queued and has not started yet.
    queued: Cell<bool>,
    /// How many registrations, queued declarations and `PUT`s are under way.
    pending: Cell<usize>,
    /// Resolvers of [`Agent::settled`]'s promises.
    waiters: RefCell<Vec<js_sys::Function>>,
    /// The last registration or declaration failure, for the page to show.
    failure: RefCell<Option<Error>>,
}

impl Agent {
    /// Registers with `options` and the tools mounted by then; later changes are declared
    /// with `set_tools`. Dropping the last `Agent` drops the `Client`, which leaves.
    pub fn connect(&self, options: Options) {
        let state = self.0.clone();
        let (tools, version) = (self.tools(), state.version.get());
        state.pending.set(state.pending.get() + 1);
        spawn_local(async move {
            match Client::register(options.tools(tools)).await {
                Ok(client) => {
                    *state.client.borrow_mut() = Some(client);
                    if state.version.get() != version {
                        queue(&state);
                    }
                }
                Err(e) => *state.failure.borrow_mut() = Some(e),
            }
            done(&state);
        });
    }

    /// Serves the mounted components' tools to a voice agent over `socket` too, until the
    /// socket closes or the last `Agent` is dropped; every change of the tools reaches it.
    pub fn voice(&self, socket: &web_sys::WebSocket, dialect: Dialect) -> Result<(), Error> {
        let voice = WsTools::attach(socket, WsOptions::new(dialect, self.tools()))?;
        *self.0.voice.borrow_mut() = Some(voice);
        Ok(())
    }

    /// The voice agent's tools as its platform's configuration declares them (`[]` without one).
    pub fn voice_declarations(&self) -> serde_json::Value {
        let voice = self.0.voice.borrow();
        voice
            .as_ref()
            .map_or(serde_json::json!([]), WsTools::declarations)
    }

    /// The registration, once it succeeded.
    pub fn client(&self) -> Option<std::cell::Ref<'_, Client>> {
        std::cell::Ref::filter_map(self.0.client.borrow(), Option::as_ref).ok()
    }

    /// What went wrong last, if anything (a registration refused, a declaration that failed).
    pub fn failure(&self) -> Option<Error> {
        self.0.failure.borrow().clone()
    }

    /// Resolves once every change so far is declared (at once when nothing is pending).
    pub async fn settled(&self) {
        if self.0.pending.get() == 0 {
            return;
        }
        let waiters = &self.0.waiters;
        let promise = js_sys::Promise::new(&mut |resolve, _| waiters.borrow_mut().push(resolve));
        let _ = JsFuture::from(promise).await;
    }

    /// The tools of every mounted component, in mount order.
    fn tools(&self) -> Vec<Tool> {
        let scopes = self.0.scopes.borrow();
        scopes.iter().flat_map(|(_, t)| t.iter().cloned()).collect()
    }

    fn add(&self, tools: Vec<Tool>) -> u64 {
        let id = self.0.next_scope.get();
        self.0.next_scope.set(id + 1);
        self.0.scopes.borrow_mut().push((id, tools));
        self.changed();
        id
    }

    fn remove(&self, id: u64) {
        self.0.scopes.borrow_mut().retain(|(scope, _)| *scope != id);
        self.changed();
    }

    fn changed(&self) {
        let state = &self.0;
        state.version.set(state.version.get() + 1);
        if let Some(voice) = state.voice.borrow().as_ref() {
            if let Err(e) = voice.set_tools(self.tools()) {
                *state.failure.borrow_mut() = Some(e);
            }
        }
        if state.client.borrow().is_some() {
            queue(state);
        }
    }
}

/// Queues one declaration task unless one is queued already: the changes of one render (a
/// route's old page unmounting, the new one mounting) become one `PUT`. Leptos renders in
/// microtasks, so the task waits for the next macrotask (a zero-delay timeout): by then the
/// whole render, across its microtasks, is done.
fn queue(state: &Rc<State>) {
    if state.queued.replace(true) {
        return;
    }
    state.pending.set(state.pending.get() + 1);
    let state = state.clone();
    spawn_local(async move {
        gloo_timers::future::TimeoutFuture::new(0).await;
        state.queued.set(false);
        let agent = Agent(state.clone());
        let put = agent.client().map(|client| client.set_tools(agent.tools()));
        if let Some(put) = put {
            if let Err(e) = put.await {
                *state.failure.borrow_mut() = Some(e);
            }
        }
        done(&state);
    });
}

/// One pending step ended; wakes [`Agent::settled`] when none is left.
fn done(state: &State) {
    state.pending.set(state.pending.get() - 1);
    if state.pending.get() == 0 {
        for resolve in state.waiters.take() {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    }
}

/// Puts `agent` in the component tree below the current owner, for [`use_tools`].
pub fn provide_agent(agent: Agent) {
    provide_context(StoredValue::new_local(agent));
}

/// The app's [`Agent`], as [`provide_agent`] put it in context.
pub fn use_agent() -> Agent {
    expect_context::<StoredValue<Agent, LocalStorage>>().get_value()
}

// ANCHOR: use_tools
/// Offers `tools` to the agent while the calling component is mounted.
pub fn use_tools(tools: Vec<Tool>) {
    let store = expect_context::<StoredValue<Agent, LocalStorage>>();
    let id = store.with_value(|agent| agent.add(tools));
    on_cleanup(move || {
        // At the app's own teardown the store may be gone first; the Client leaves then.
        let _ = store.try_with_value(|agent| agent.remove(id));
    });
}
// ANCHOR_END: use_tools
