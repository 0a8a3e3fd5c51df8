//! The tokio shell around the engine: the only module that speaks the engine's API. One
//! task owns the [`Engine`]; it carries out every [`Output`] (requests, the stream, handlers,
//! callbacks), feeds back what happened, and sleeps until the engine's next deadline.
//! `config` turns the options into the engine's config; `tasks` are what the task spawns.

mod config;
mod tasks;

use crate::handler::Handler;
use crate::handler::Worker;
use crate::http::Http;
use crate::options::{Options, Tool};
use client_tools_core::api::Error;
use client_tools_core::api::{Callback, TokenSource};
use client_tools_core::engine::{
    CallEvent, ClientState, Engine, EngineError, EngineErrorKind, Input, OpId, Output, Status,
    StreamId,
};
use client_tools_core::time::{Duration as EngineDuration, Instant as EngineInstant};
use config::{engine_config, engine_error, handlers, invalid, tool_defs};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tasks::{AbortOnDrop, Event, Running};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;

/// Once the client has left or stopped, the task ends when nothing is owed any more, and
/// at the latest this long after: a `DELETE` the server keeps refusing must not keep a
/// dropped client's task alive for ever.
const WIND_DOWN: Duration = Duration::from_secs(10);
/// The task wakes at least this often, so a wall clock that jumps back cannot make it
/// sleep past a deadline for long (an early wake is harmless: the engine does what fell due).
const MAX_SLEEP: Duration = Duration::from_secs(30);

/// The engine's "now": ms since the Unix epoch.
fn now_ms() -> EngineInstant {
    EngineInstant::from_ms(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64),
    )
}

/// An app's request to the task; the answer comes back on the sender.
pub(crate) enum Command {
    Leave(oneshot::Sender<Result<(), Error>>),
    SetTools(Vec<Tool>, oneshot::Sender<Result<(), Error>>),
}

/// Where the client stands, as the [`Client`](crate::Client) handle reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Info {
    pub id: Option<String>,
    pub name: Option<String>,
    pub state: ClientState,
}

/// The handles the [`Client`](crate::Client) keeps.
pub(crate) struct Started {
    pub commands: mpsc::UnboundedSender<Command>,
    pub info: watch::Receiver<Info>,
    pub registered: oneshot::Receiver<Result<(), Error>>,
}

/// Checks the options, builds the engine and spawns its task on the current runtime.
pub(crate) fn start(options: Options) -> Result<Started, Error> {
    let (config, handlers) = engine_config(&options)?;
    let options = options.into_parts();
    let engine = Engine::new(config, now_ms()).map_err(invalid)?;
    let (commands, commands_rx) = mpsc::unbounded_channel();
    let (events, events_rx) = mpsc::unbounded_channel();
    let (registered_tx, registered) = oneshot::channel();
    let (info_tx, info) = watch::channel(Info {
        id: None,
        name: None,
        state: engine.state(),
    });
    let driver = Driver {
        engine,
        http: Http::new(),
        handlers,
        events,
        calls: HashMap::new(),
        streams: HashMap::new(),
        ops: HashMap::new(),
        registered: Some(registered_tx),
        inflight: 0,
        wind_down_by: None,
        request_timeout: options.settings.request_timeout,
        on_status: options.on_status,
        on_call: options.on_call,
        token_source: options.token_source,
        info: info_tx,
    };
    tokio::spawn(driver.run(commands_rx, events_rx));
    Ok(Started {
        commands,
        info,
        registered,
    })
}

struct Driver {
    engine: Engine,
    http: Http,
    handlers: HashMap<String, Handler>,
    /// Cloned into every helper task.
    events: mpsc::UnboundedSender<Event>,
    calls: HashMap<String, Running>,
    streams: HashMap<StreamId, AbortOnDrop>,
    ops: HashMap<OpId, oneshot::Sender<Result<(), Error>>>,
    /// `Client::register` waits on it until the first registration or a fatal error.
    registered: Option<oneshot::Sender<Result<(), Error>>>,
    /// Requests sent and not yet answered.
    inflight: usize,
    /// Set once the client left or stopped: the task ends by then at the latest.
    wind_down_by: Option<Instant>,
    request_timeout: Duration,
    on_status: Option<Callback<Worker, Status>>,
    on_call: Option<Callback<Worker, CallEvent>>,
    /// Where fresh tokens come from after a 401, when the app gave a source.
    token_source: Option<TokenSource<Worker>>,
    info: watch::Sender<Info>,
}

impl Driver {
    async fn run(
        mut self,
        mut commands: mpsc::UnboundedReceiver<Command>,
        mut events: mpsc::UnboundedReceiver<Event>,
    ) {
        let mut handle_alive = true;
        loop {
            self.drain();
            if self.done() {
                break;
            }
            let wake = self.next_wake();
            tokio::select! {
                Some(event) = events.recv() => self.on_event(event),
                command = commands.recv(), if handle_alive => match command {
                    Some(command) => self.on_command(command),
                    None => {
                        // Every `Client` handle is gone (dropped without `leave`): leave.
                        handle_alive = false;
                        self.engine.leave(now_ms());
                    }
                },
                () = tokio::time::sleep_until(wake) => self.on_wake(),
            }
        }
        // Dropping `self` aborts the stream tasks and cancels the handlers still running.
    }

    /// Carries out everything the engine asks, until it has nothing more.
    fn drain(&mut self) {
        while let Some(out) = self.engine.poll_output() {
            self.carry_out(out);
        }
        self.publish_info();
        let state = self.engine.state();
        if matches!(state, ClientState::Left | ClientState::Failed) && self.wind_down_by.is_none() {
            self.wind_down_by = Some(Instant::now() + WIND_DOWN);
        }
    }

    /// Tells the `Client` handle the id, name and state.
    fn publish_info(&self) {
        let info = Info {
            id: self.engine.id().map(str::to_owned),
            name: self.engine.name().map(str::to_owned),
            state: self.engine.state(),
        };
        self.info.send_if_modified(|old| {
            let changed = *old != info;
            *old = info;
            changed
        });
    }

    /// Left or stopped, with nothing owed (no request on its way, no op unsettled, no retry
    /// scheduled), or past the wind-down time.
    fn done(&self) -> bool {
        let Some(by) = self.wind_down_by else {
            return false;
        };
        let idle =
            self.inflight == 0 && self.ops.is_empty() && self.engine.poll_timeout().is_none();
        idle || Instant::now() >= by
    }

    /// When to wake next: the loop asks after every event and every wake, so a wake that
    /// comes before the engine's clock reaches its deadline (tokio's timer and the wall clock
    /// differ) finds nothing due and sleeps again for the rest ([`sleep_for`]).
    fn next_wake(&self) -> Instant {
        let now = Instant::now();
        let mut wake = now + sleep_for(self.engine.poll_timeout(), now_ms());
        for at in [self.wind_down_by].into_iter().flatten() {
            wake = wake.min(at);
        }
        wake
    }

    fn on_wake(&mut self) {
        self.engine.handle_timeout(now_ms());
    }

    fn on_command(&mut self, command: Command) {
        match command {
            Command::Leave(reply) => {
                let op = self.engine.leave(now_ms());
                self.ops.insert(op, reply);
            }
            Command::SetTools(tools, reply) => {
                match self.engine.set_tools(tool_defs(&tools), now_ms()) {
                    Ok(op) => {
                        // New calls use the new list at once, so the handlers change now too.
                        self.handlers = handlers(&tools);
                        self.ops.insert(op, reply);
                    }
                    Err(e) => {
                        let _ = reply.send(Err(invalid(e)));
                    }
                }
            }
        }
    }

    fn on_event(&mut self, event: Event) {
        let now = now_ms();
        match event {
            Event::Answer { request, result } => {
                self.inflight = self.inflight.saturating_sub(1);
                let input = match result {
                    Ok(a) => Input::Answer {
                        request,
                        status: a.status,
                        body: a.body,
                        retry_after: a.retry_after_ms.map(EngineDuration::from_ms),
                    },
                    Err(message) => Input::NetworkError { request, message },
                };
                self.engine.handle(input, now);
            }
            Event::StreamOpened(stream, status) => {
                self.engine
                    .handle(Input::StreamOpened { stream, status }, now);
            }
            Event::StreamBytes(stream, bytes) => {
                self.engine.handle_stream_bytes(stream, &bytes, now);
            }
            Event::StreamClosed(stream, error) => {
                self.streams.remove(&stream);
                self.engine
                    .handle(Input::StreamClosed { stream, error }, now);
            }
            Event::HandlerDone(call_id, returned) => {
                self.calls.remove(&call_id);
                self.engine
                    .handle(Input::HandlerDone { call_id, returned }, now);
            }
            Event::Token(token) => self.engine.handle(Input::Token(token), now),
        }
    }

    fn carry_out(&mut self, out: Output) {
        match out {
            Output::Send(req) => {
                self.inflight += 1;
                tasks::send(
                    self.http.clone(),
                    self.events.clone(),
                    req,
                    self.request_timeout,
                );
            }
            Output::OpenStream {
                stream,
                url,
                headers,
            } => {
                let task = tokio::spawn(tasks::read_stream(
                    self.http.clone(),
                    self.events.clone(),
                    stream,
                    url,
                    headers,
                    self.request_timeout,
                ));
                self.streams
                    .insert(stream, AbortOnDrop(task.abort_handle()));
            }
            Output::CloseStream { stream } => {
                self.streams.remove(&stream);
            }
            Output::RunHandler {
                call_id,
                run_id,
                tool,
                arguments,
                deadline,
            } => self.run_handler(call_id, run_id, tool, arguments, deadline.as_ms()),
            Output::HandlerDeadline { call_id, deadline } => {
                if let Some(running) = self.calls.get(&call_id) {
                    running
                        .deadline_ms
                        .store(deadline.as_ms(), Ordering::Relaxed);
                }
            }
            Output::AbortHandler { call_id, .. } => {
                self.calls.remove(&call_id);
            }
            Output::Status(status) => self.on_status(status),
            // Asked only with `Config::token_refresh`, set when the app gave a token source.
            Output::RefreshToken => match &self.token_source {
                Some(source) => {
                    let (fresh, events) = (source(), self.events.clone());
                    tokio::spawn(async move {
                        let _ = events.send(Event::Token(fresh.await));
                    });
                }
                None => self.engine.handle(
                    Input::Token(Err("this worker has no token source".into())),
                    now_ms(),
                ),
            },
            Output::Call(event) => tell(&self.on_call, &event),
            Output::OpDone { op, result } => {
                if let Some(reply) = self.ops.remove(&op) {
                    let _ = reply.send(result.map_err(engine_error));
                }
            }
        }
    }

    fn run_handler(
        &mut self,
        call_id: String,
        run_id: String,
        tool: String,
        arguments: serde_json::Map<String, serde_json::Value>,
        deadline_ms: u64,
    ) {
        let Some(handler) = self.handlers.get(&tool).cloned() else {
            // The engine only runs tools it offers, and those come with handlers; answered
            // anyway, so a call is never left without an answer.
            let held: Vec<String> = self.handlers.keys().cloned().collect();
            let returned = client_tools_core::calls::no_handler(&tool, &held);
            return self
                .engine
                .handle(Input::HandlerDone { call_id, returned }, now_ms());
        };
        let events = self.events.clone();
        let running = tasks::run_handler(
            events,
            handler,
            call_id.clone(),
            run_id,
            tool,
            arguments,
            deadline_ms,
        );
        self.calls.insert(call_id, running);
    }

    fn on_status(&mut self, status: Status) {
        match &status {
            Status::Registered { .. } | Status::Reregistered { .. } => {
                // Before `register` returns, so the handle reads the id at once.
                self.publish_info();
                if let Some(waiter) = self.registered.take() {
                    let _ = waiter.send(Ok(()));
                }
            }
            // Fatal: a refusal, or the engine's register deadline (its message names the
            // request that failed last).
            Status::Error {
                message,
                fatal: true,
                kind,
            } => {
                if let Some(waiter) = self.registered.take() {
                    let kind = kind.unwrap_or(EngineErrorKind::Rejected);
                    let error = EngineError {
                        kind,
                        message: message.clone(),
                    };
                    let _ = waiter.send(Err(engine_error(error)));
                }
            }
            _ => {}
        }
        tell(&self.on_status, &status);
    }
}

/// How long to sleep for the engine's next deadline `at` (the engine's clock reads `now`): until
/// it, and at least 1 ms (a deadline the engine still gives after handling it never spins the
/// task), at most [`MAX_SLEEP`]. The browser shells' timers keep the same rule
/// (`guards::drain` in the wasm SDK).
fn sleep_for(at: Option<EngineInstant>, now: EngineInstant) -> Duration {
    let ms = at.map_or(u64::MAX, |at| at.since(now).as_ms().max(1));
    Duration::from_millis(ms).min(MAX_SLEEP)
}

/// Calls an app callback. A panicking callback is the app's bug: it must not take the
/// client's task (and with it every call in progress) down.
fn tell<T: 'static>(callback: &Option<Callback<Worker, T>>, event: &T) {
    if let Some(f) = callback {
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(event)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wake before the deadline by the engine's clock sleeps again for the rest; a deadline
    /// at or past "now" is handled within 1 ms, never in a loop of zero-length sleeps.
    #[test]
    fn every_wake_sleeps_again_for_the_rest_and_at_least_a_millisecond() {
        let at = |ms| EngineInstant::from_ms(1_000_000 + ms);
        let ms = Duration::from_millis;
        assert_eq!(sleep_for(Some(at(77)), at(0)), ms(77));
        // Woken 1 ms early (tokio's clock ahead of the wall clock): 1 ms more.
        assert_eq!(sleep_for(Some(at(77)), at(76)), ms(1));
        assert_eq!(sleep_for(Some(at(77)), at(77)), ms(1));
        assert_eq!(sleep_for(Some(at(77)), at(5_000)), ms(1));
        assert_eq!(sleep_for(Some(at(u64::MAX / 2)), at(0)), MAX_SLEEP);
        assert_eq!(sleep_for(None, at(0)), MAX_SLEEP);
    }
}
