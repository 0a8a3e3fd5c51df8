//! Calls: dispatch (each `call_id` at most once), ack, the handler and its local deadline,
//! the result, and the server failing a call.

use super::call_table::{cut_result, Call};
use super::core::Core;
use super::io::{CallEvent, Method, Output};
use super::requests::{Answer, ReqKind};
use crate::protocol::time::parse_rfc3339;
use crate::protocol::{AckAnswer, CallResult, ToolDispatched};
use serde_json::Value;

/// A local deadline ends at least this long before the server's result deadline, so the
/// "timed out" result arrives before the server fails the call. The server's deadline is read
/// by the page's clock: a clock far off the server's moves the local deadline with it.
pub(crate) const RESULT_MARGIN_MS: u64 = 2_000;

impl Core {
    /// A `client_tool_dispatched` event or pending call. Only this client's calls, each
    /// `call_id` once; acked at once; the handler runs unless the call is answered at once.
    pub fn on_dispatched(&mut self, call: ToolDispatched, now: u64) {
        let Some(reg) = &self.reg else { return };
        if call.client_id != reg.id || !self.calls.seen.insert(&call.call_id) {
            return;
        }
        let ToolDispatched {
            run_id,
            client_id,
            call_id,
            tool,
            arguments,
            ..
        } = call;
        self.out.push_back(Output::Call(CallEvent::Dispatched {
            call_id: call_id.clone(),
            tool: tool.clone(),
            run_id: run_id.clone(),
        }));
        self.send_ack(&client_id, &call_id, now);
        let mut entry = Call {
            client_id,
            tool,
            dispatched_at: now,
            acked: false,
            running: false,
            deadline: now,
            result: None,
            posting: false,
            reacked: false,
        };
        match self.check_call(&run_id, &entry.tool, arguments) {
            Ok((arguments, timeout)) => {
                entry.running = true;
                entry.deadline = now.saturating_add(timeout);
                self.out.push_back(Output::RunHandler {
                    call_id: call_id.clone(),
                    run_id,
                    tool: entry.tool.clone(),
                    arguments,
                    deadline_ms: entry.deadline,
                });
            }
            Err(text) => {
                entry.result = Some(CallResult {
                    text,
                    is_error: true,
                })
            }
        }
        self.calls.live.insert(call_id, entry);
    }

    /// The arguments and the local timeout of a call that may run, or the `is_error` text
    /// of one that may not: unreadable arguments, an unknown tool, arguments failing the
    /// tool's schema, or one call too many in this run.
    fn check_call(
        &mut self,
        run_id: &str,
        tool: &str,
        arguments: Value,
    ) -> Result<(serde_json::Map<String, Value>, u64), String> {
        let Some(def) = self.tools.iter().find(|t| t.spec.name == tool) else {
            let names: Vec<&str> = self.tools.iter().map(|t| t.spec.name.as_str()).collect();
            return Err(if names.is_empty() {
                format!("Unknown tool {tool:?}: this client offers no tools now.")
            } else {
                format!(
                    "Unknown tool {tool:?}: this client offers {}.",
                    names.join(", ")
                )
            });
        };
        let arguments = match arguments {
            // The usual case, taken as it is rather than copied.
            Value::Object(_) => arguments,
            other => match crate::protocol::validate::arguments(&other) {
                Ok(map) => Value::Object(map),
                Err(e) => return Err(format!("Invalid arguments for {tool:?}: {e}")),
            },
        };
        if let Some(schema) = &def.spec.parameters {
            if let Err(e) = crate::schema::validate(schema, &arguments) {
                return Err(format!("Invalid arguments for {tool:?}: {e}"));
            }
        }
        let (timeout, max) = (def.timeout(), def.max_calls_per_run);
        if let Some(max) = max {
            let n = self.calls.count_call(run_id, tool);
            if n > max {
                return Err(format!(
                    "Tool {tool:?} allows at most {max} calls per run; this was call {n}."
                ));
            }
        }
        match arguments {
            Value::Object(map) => Ok((map, timeout)),
            // Built as an object above; answered as an error rather than trusted blindly.
            _ => Err(format!("Invalid arguments for {tool:?}: not a JSON object")),
        }
    }

    /// A dispatched call whose data could not be read: answered `is_error` when its
    /// `client_id` (this client's) and `call_id` can be read. False if they cannot.
    pub fn answer_unreadable_call(&mut self, value: &Value, error: &str, now: u64) -> bool {
        let field = |name: &str| value.get(name).and_then(Value::as_str);
        let (Some(client_id), Some(call_id)) = (field("client_id"), field("call_id")) else {
            return false;
        };
        let Some(reg) = &self.reg else { return true };
        if client_id != reg.id || !self.calls.seen.insert(call_id) {
            return true;
        }
        let tool = field("tool").unwrap_or_default().to_owned();
        self.out.push_back(Output::Call(CallEvent::Dispatched {
            call_id: call_id.to_owned(),
            tool: tool.clone(),
            run_id: field("run_id").unwrap_or_default().to_owned(),
        }));
        self.send_ack(client_id, call_id, now);
        let call = Call {
            client_id: client_id.to_owned(),
            tool,
            dispatched_at: now,
            acked: false,
            running: false,
            deadline: now,
            result: Some(CallResult {
                text: format!("The call could not be read: {error}"),
                is_error: true,
            }),
            posting: false,
            reacked: false,
        };
        self.calls.live.insert(call_id.to_owned(), call);
        true
    }

    fn send_ack(&mut self, client_id: &str, call_id: &str, now: u64) {
        let url = self.url(&self.cfg.paths.ack, client_id, call_id);
        let kind = ReqKind::Ack {
            call_id: call_id.to_owned(),
        };
        self.send_new(kind, Method::Post, url, None, false, now);
    }

    pub(super) fn on_ack_answer(&mut self, call_id: &str, answer: Answer, now: u64) {
        let Some(call) = self.calls.live.get_mut(call_id) else {
            return;
        };
        match answer {
            Answer::Ok(body) => {
                call.acked = true;
                let deadline = serde_json::from_str::<AckAnswer>(&body)
                    .ok()
                    .and_then(|a| parse_rfc3339(&a.result_deadline));
                if let (true, Some(server)) = (call.running, deadline) {
                    let earlier = server.saturating_sub(RESULT_MARGIN_MS);
                    if earlier < call.deadline {
                        call.deadline = earlier;
                        self.out.push_back(Output::HandlerDeadline {
                            call_id: call_id.to_owned(),
                            deadline_ms: earlier,
                        });
                    }
                }
                let event = CallEvent::Acked {
                    call_id: call_id.to_owned(),
                    tool: call.tool.clone(),
                    elapsed_ms: now.saturating_sub(call.dispatched_at),
                };
                self.out.push_back(Output::Call(event));
                self.try_post(call_id, now);
            }
            Answer::Refused {
                status,
                kind,
                message,
            } => {
                // `call_settled` and `not_found` are the server saying the call is over.
                let over = ["call_settled", "not_found"];
                self.call_refused("ack", call_id, status, kind, &message, &over);
            }
        }
    }

    /// The server refused a call's `what` (`ack` or `result`) for good: the call ends with the
    /// error's type as its reason, and the app hears of it unless that type is one of `over`
    /// (the server saying the call is over anyway).
    fn call_refused(
        &mut self,
        what: &str,
        call_id: &str,
        status: u16,
        kind: String,
        message: &str,
        over: &[&str],
    ) {
        if !over.contains(&kind.as_str()) {
            self.error(format!(
                "{what} of call {call_id} refused ({status}): {message}"
            ));
        }
        let reason = if kind.is_empty() {
            format!("{what} refused ({status}): {message}")
        } else {
            kind
        };
        self.end_call(call_id, &reason);
    }

    /// Posts the call's result if it is known, acked, and no tool list is pending.
    fn try_post(&mut self, call_id: &str, now: u64) {
        let Some(call) = self.calls.live.get(call_id) else {
            return;
        };
        let Some(result) = &call.result else { return };
        if !call.acked || call.posting || self.tools_pending() {
            return;
        }
        let body = serde_json::to_string(result).expect("a result always serializes");
        let url = self.url(&self.cfg.paths.result, &call.client_id, call_id);
        if let Some(call) = self.calls.live.get_mut(call_id) {
            call.posting = true;
        }
        let kind = ReqKind::Result {
            call_id: call_id.to_owned(),
        };
        self.send_new(kind, Method::Post, url, Some(body), false, now);
    }

    /// Posts every result that waited (for a tool list, or an ack).
    pub fn post_waiting_results(&mut self, now: u64) {
        for id in self
            .calls
            .ids_in_order(|c| c.result.is_some() && !c.posting)
        {
            self.try_post(&id, now);
        }
    }

    pub(super) fn on_result_answer(&mut self, call_id: &str, answer: Answer, now: u64) {
        let Some(call) = self.calls.live.get_mut(call_id) else {
            return;
        };
        match answer {
            Answer::Ok(_) => {
                let call = self.calls.live.remove(call_id).expect("looked up above");
                self.out.push_back(Output::Call(CallEvent::Answered {
                    call_id: call_id.to_owned(),
                    tool: call.tool,
                    is_error: call.result.is_some_and(|r| r.is_error),
                    elapsed_ms: now.saturating_sub(call.dispatched_at),
                }));
            }
            // Settled already (failed by a deadline, or answered before): drop quietly.
            Answer::Refused { kind, .. } if kind == "call_settled" => {
                self.end_call(call_id, "call_settled")
            }
            // The server lost the ack: ack again, then the result follows.
            Answer::Refused { kind, .. } if kind == "call_not_acked" && !call.reacked => {
                call.reacked = true;
                call.acked = false;
                call.posting = false;
                let client_id = call.client_id.clone();
                self.send_ack(&client_id, call_id, now);
            }
            Answer::Refused {
                status,
                kind,
                message,
            } => self.call_refused("result", call_id, status, kind, &message, &["not_found"]),
        }
    }

    /// A handler finished. Ignored if its answer is no longer wanted (timed out, failed).
    pub fn on_handler_done(&mut self, call_id: &str, outcome: Result<String, String>, now: u64) {
        let Some(call) = self.calls.live.get_mut(call_id) else {
            return;
        };
        if !call.running {
            return;
        }
        call.running = false;
        let (text, is_error) = match outcome {
            Ok(text) => (text, false),
            Err(text) => (text, true),
        };
        call.result = Some(CallResult {
            text: cut_result(text),
            is_error,
        });
        self.try_post(call_id, now);
    }

    /// Answers "timed out after N ms" for handlers past their local deadline and aborts them.
    pub fn expire_calls(&mut self, now: u64) {
        for call_id in self.calls.ids_in_order(|c| c.running && c.deadline <= now) {
            let Some(call) = self.calls.live.get_mut(&call_id) else {
                continue;
            };
            call.running = false;
            let text = format!(
                "timed out after {} ms",
                call.deadline.saturating_sub(call.dispatched_at)
            );
            call.result = Some(CallResult {
                text: text.clone(),
                is_error: true,
            });
            self.out.push_back(Output::AbortHandler {
                call_id: call_id.clone(),
                reason: text,
            });
            self.try_post(&call_id, now);
        }
    }

    /// `client_tool_failed`: the call is over; abort its handler and post nothing.
    pub fn on_call_failed(&mut self, client_id: &str, call_id: &str, reason: &str) {
        if self
            .calls
            .live
            .get(call_id)
            .is_some_and(|c| c.client_id == client_id)
        {
            self.end_call(call_id, reason);
        }
    }

    /// Ends a call without (further) answer: aborts a running handler, tells the app.
    fn end_call(&mut self, call_id: &str, reason: &str) {
        let Some(call) = self.calls.live.remove(call_id) else {
            return;
        };
        if call.running {
            self.out.push_back(Output::AbortHandler {
                call_id: call_id.to_owned(),
                reason: reason.to_owned(),
            });
        }
        self.out.push_back(Output::Call(CallEvent::Failed {
            call_id: call_id.to_owned(),
            tool: call.tool,
            reason: reason.to_owned(),
            elapsed_ms: self.now.saturating_sub(call.dispatched_at),
        }));
    }

    /// Ends every call (leaving, or stopping for good).
    pub fn drop_all_calls(&mut self, reason: String) {
        for id in self.calls.ids_in_order(|_| true) {
            self.end_call(&id, &reason);
        }
    }
}
