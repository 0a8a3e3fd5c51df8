//! The call runtime every transport shares: the Sessions API's event stream, a voice agent's
//! WebSocket, a turn-based API's `toolCalls`, an in-browser agent, a plain tool registry.
//!
//! What differs between them is how a call arrives and how its answer leaves. What does not
//! is here: each call id runs at most once; per-run call counts (`max_calls_per_run`); the
//! arguments checked against the tool's JSON Schema before a handler runs; a local deadline
//! (`timeout_ms`, default 30 s) after which the call is answered "timed out" and its handler
//! aborted; one convention for reading what a handler returned ([`Answer::from_returned`]);
//! and the transport's result limit ([`ResultLimit`]).
//!
//! # Contract
//!
//! Sans-I/O, like the engine: no clock, no handler is run here. The transport feeds each call
//! to [`CallRuntime::admit`] with "now", and carries out the [`Admission`]:
//!
//! ```text
//! match runtime.admit(call, &tools, now) {
//!     Admission::Duplicate                 => {}                      // seen before: nothing
//!     Admission::Answer(answer)            => send(answer),           // refused without a handler
//!     Admission::Run { arguments, deadline } => spawn(handler(arguments)),
//! }
//! // the handler finished:
//! if let Some(answer) = runtime.finish(call_id, returned) { send(answer) }  // None: no longer wanted
//! // a timer at runtime.next_deadline():
//! for (call_id, answer) in runtime.expire(now) { abort(call_id); send(answer) }
//! // the transport says the call is over (failed, socket closed):
//! if runtime.cancel(call_id) { abort(call_id) }
//! ```
//!
//! A transport that writes text cuts it with [`Answer::into_text`] and its limit.

mod replays;
mod result;
mod runs;
mod seen;
mod tool;

pub use replays::{Replays, REPLAYS_MAX};
pub use result::{is_result_like, Answer, Content, ErrorKind, ResultLimit, Returned, DONE_TEXT};
pub use runs::RUNS_MAX;
pub use seen::SEEN_MAX;
pub use tool::{ToolDef, DEFAULT_TOOL_TIMEOUT_MS};

use crate::quote::Quoted;
use crate::str_map::StrMap;
use crate::time::{Duration, Instant};
use runs::RunCounts;
use seen::Seen;
use serde_json::{Map, Value};

/// One call as it arrived: the ids, the tool's name and the arguments as sent.
#[derive(Clone, Copy, Debug)]
pub struct Call<'a> {
    /// The call's id, as the transport gave it; a call id runs at most once.
    pub call_id: &'a str,
    /// The run (conversation turn) it belongs to; `max_calls_per_run` counts per run id.
    pub run_id: &'a str,
    /// The name of the tool called, as the model sent it (maybe one not on offer).
    pub tool: &'a str,
}

/// What to do with a call that arrived.
#[derive(Clone, Debug, PartialEq)]
pub enum Admission {
    /// Its id was seen before: it runs at most once, so nothing is done.
    Duplicate,
    /// Run the tool's handler with these arguments. The runtime answers "timed out" at
    /// `deadline` unless [`CallRuntime::finish`] comes first.
    Run {
        /// The call's arguments, a JSON object that passed the tool's schema.
        arguments: Map<String, Value>,
        /// When the runtime answers "timed out": the tool's `timeout_ms` after admission
        /// (a server's or caller's deadline may later bring it earlier, see [`Cutoff`]).
        deadline: Instant,
    },
    /// Answered without running a handler: an unknown tool, unreadable arguments or
    /// arguments failing the schema, or one call too many in its run.
    Answer(Answer),
}

/// Whose deadline cuts a call short of its tool's timeout, named in its "timed out" answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cutoff {
    /// The server's deadline for the result (the Sessions API's).
    Server,
    /// The caller's (`deadlineMs` of a registry's `execute`).
    Caller,
}

/// A handler that runs, and when it times out.
#[derive(Debug)]
struct Running {
    started: Instant,
    deadline: Instant,
    /// Whose deadline it is when not the tool's timeout.
    cut_by: Option<Cutoff>,
}

/// The calls of one transport connection (or one registration): see the [module docs](self).
#[derive(Debug, Default)]
pub struct CallRuntime {
    seen: Seen,
    runs: RunCounts,
    running: StrMap<Running>,
}

impl CallRuntime {
    /// A runtime that has seen no call.
    pub fn new() -> CallRuntime {
        CallRuntime::default()
    }

    /// Marks `call_id` seen without admitting it (a call whose data could not be read, but
    /// whose id could: it is answered once, as an error). False if it was seen before.
    pub fn mark_seen(&mut self, call_id: &str) -> bool {
        !self.running.contains_key(call_id) && self.seen.insert(call_id)
    }

    /// A call arrived with `arguments` (an object; a JSON string holding one; `null` for
    /// none). Decides whether its handler runs, counting it in its run if so.
    pub fn admit(
        &mut self,
        call: Call<'_>,
        arguments: Value,
        tools: &[ToolDef],
        now: Instant,
    ) -> Admission {
        // A running call is known however many calls came since it was seen: the seen ids
        // are a bounded window, the running ones are not forgotten.
        if self.running.contains_key(call.call_id) || !self.seen.insert(call.call_id) {
            return Admission::Duplicate;
        }
        match self.check(call, arguments, tools) {
            Ok((arguments, timeout)) => {
                let deadline = now + timeout;
                let running = Running {
                    started: now,
                    deadline,
                    cut_by: None,
                };
                self.running.insert(call.call_id, running);
                Admission::Run {
                    arguments,
                    deadline,
                }
            }
            Err(answer) => Admission::Answer(answer),
        }
    }

    /// The arguments and the local timeout of a call that may run, or the error answer of one
    /// that may not.
    fn check(
        &mut self,
        call: Call<'_>,
        arguments: Value,
        tools: &[ToolDef],
    ) -> Result<(Map<String, Value>, Duration), Answer> {
        let tool = call.tool;
        let Some(def) = tools.iter().find(|t| t.spec.name == tool) else {
            return Err(unknown_tool(tool, tools));
        };
        let invalid = |e: &dyn std::fmt::Display| {
            Answer::error(
                ErrorKind::InvalidArguments,
                format!("Invalid arguments for {}: {e}", Quoted(tool)),
            )
        };
        let arguments = match arguments {
            Value::Object(map) => map,
            other => crate::protocol::validate::arguments(&other).map_err(|e| invalid(&e))?,
        };
        let arguments = Value::Object(arguments);
        if let Some(schema) = &def.spec.parameters {
            let options = crate::schema::Options {
                assert_formats: def.assert_formats,
                ..Default::default()
            };
            crate::schema::validate_with(schema, &arguments, &options).map_err(|e| invalid(&e))?;
        }
        let Value::Object(arguments) = arguments else {
            return Err(invalid(&"not a JSON object"));
        };
        if let Some(max) = def.max_calls_per_run {
            let n = self.runs.count(call.run_id, tool);
            if n > max {
                return Err(Answer::error(
                    ErrorKind::TooManyCalls,
                    format!(
                        "Tool {} allows at most {max} calls per run; this was call {n}.",
                        Quoted(tool)
                    ),
                ));
            }
        }
        Ok((arguments, def.timeout_duration()))
    }

    /// A handler finished with `returned`: its answer, or `None` when the answer is no longer
    /// wanted (the call timed out or was cancelled, or is unknown).
    pub fn finish(&mut self, call_id: &str, returned: Returned) -> Option<Answer> {
        self.running.remove(call_id)?;
        Some(Answer::from_returned(returned))
    }

    /// The transport says the call is over: true if its handler was running (abort it; its
    /// answer is no longer wanted).
    pub fn cancel(&mut self, call_id: &str) -> bool {
        self.running.remove(call_id).is_some()
    }

    /// Brings a running handler's deadline forward to `at`, the server's deadline for the
    /// result. True if it moved; a later `at` leaves it.
    pub fn bring_deadline_forward(&mut self, call_id: &str, at: Instant) -> bool {
        self.cut_short(call_id, at, Cutoff::Server)
    }

    /// Brings a running handler's deadline forward to `at`, `whose` deadline (named in its
    /// "timed out" answer). True if it moved; a later `at` leaves it.
    pub fn cut_short(&mut self, call_id: &str, at: Instant, whose: Cutoff) -> bool {
        match self.running.get_mut(call_id) {
            Some(r) if at < r.deadline => {
                r.deadline = at;
                r.cut_by = Some(whose);
                true
            }
            _ => false,
        }
    }

    /// The deadline of `call_id`'s handler as it stands, if it is admitted and wanted.
    pub fn deadline(&self, call_id: &str) -> Option<Instant> {
        self.running.get(call_id).map(|r| r.deadline)
    }

    /// The earliest deadline of a running handler.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.running.values().map(|r| r.deadline).min()
    }

    /// The calls whose handlers ran past their deadline by `now`, each answered "timed out
    /// after N ms", in the order they started. Abort each handler.
    pub fn expire(&mut self, now: Instant) -> Vec<(String, Answer)> {
        // Sorted by insertion: running calls are few, and `slice::sort` adds ~4 KB of wasm.
        // Plain loops: each iterator chain is its own monomorphization in the wasm.
        let mut due: Vec<(Instant, String)> = Vec::new();
        for (id, r) in self.running.iter() {
            if r.deadline <= now {
                let at = due.partition_point(|(s, i)| (*s, i.as_str()) < (r.started, id));
                due.insert(at, (r.started, id.to_owned()));
            }
        }
        let mut answers = Vec::with_capacity(due.len());
        for (_, id) in due {
            if let Some(r) = self.running.remove(&id) {
                let ms = r.deadline.since(r.started).as_ms();
                // Cut by the transport's deadline, the time may be short: say whose it was.
                let why = match r.cut_by {
                    Some(Cutoff::Server) => " (the server's deadline for the result)",
                    Some(Cutoff::Caller) => " (the caller's deadline)",
                    None => "",
                };
                let answer =
                    Answer::error(ErrorKind::Timeout, format!("timed out after {ms} ms{why}"));
                answers.push((id, answer));
            }
        }
        answers
    }

    /// Whether `call_id`'s handler runs and its answer is wanted.
    pub fn is_running(&self, call_id: &str) -> bool {
        self.running.contains_key(call_id)
    }

    /// How many handlers run.
    pub fn running(&self) -> usize {
        self.running.len()
    }

    /// Forgets a run's call counts (the run ended).
    pub fn forget_run(&mut self, run_id: &str) {
        self.runs.forget(run_id);
    }
}

/// What a shell answers a call of a tool it offers but holds no handler for (each offered tool
/// comes with one, so only a race with a tool list change gets here): the one message of
/// every shell (browser, WebSocket, native worker), naming the handlers it holds.
pub fn no_handler(tool: &str, held: &[String]) -> Returned {
    let held = if held.is_empty() {
        "none".to_owned()
    } else {
        crate::text::join(held, ", ")
    };
    Returned::Threw(format!(
        "no handler for tool {} here (it has: {held})",
        Quoted(tool)
    ))
}

/// The answer to a call of a tool not on offer: it names the tools that are.
pub fn unknown_tool(tool: &str, tools: &[ToolDef]) -> Answer {
    let names: Vec<&str> = tools.iter().map(|t| t.spec.name.as_str()).collect();
    Answer::error(
        ErrorKind::UnknownTool,
        if names.is_empty() {
            format!(
                "Unknown tool {}: this client offers no tools now.",
                Quoted(tool)
            )
        } else {
            format!(
                "Unknown tool {}: this client offers {}.",
                Quoted(tool),
                crate::text::join(&names, ", ")
            )
        },
    )
}
