//! Calls: dispatch (each `call_id` at most once), ack, the handler and its local deadline,
//! the result, and the server failing a call.

use super::call_table::Call;
use super::core::Core;
use super::io::{CallEvent, Method, Output};
use super::requests::{Answer, ReqKind};
use crate::calls::{self, Admission, ResultLimit, Returned};
use crate::protocol::time::parse_rfc3339;
use crate::protocol::{AckAnswer, CallResult, ToolDispatched};
use crate::time::Instant;
use serde_json::Value;

/// A local deadline ends at least this long before the server's result deadline, so the
/// "timed out" result arrives before the server fails the call. The server's deadline is read
/// by the page's clock: a clock far off the server's moves the local deadline with it.
pub(crate) const RESULT_MARGIN_MS: u64 = 2_000;

impl Core {
    /// A `client_tool_dispatched` event or pending call. Only this client's calls, each
    /// `call_id` once (the [`CallRuntime`](crate::calls::CallRuntime) decides); acked at once;
    /// the handler runs unless the call is answered at once.
    pub fn on_dispatched(&mut self, call: ToolDispatched, now: u64) {
        let Some(reg) = &self.reg else { return };
        if call.client_id != reg.id {
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
        let ids = calls::Call {
            call_id: &call_id,
            run_id: &run_id,
            tool: &tool,
        };
        let admission =
            self.calls
                .runtime
                .admit(ids, arguments, &self.tools, Instant::from_ms(now));
        if admission == Admission::Duplicate {
            return;
        }
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
            result: None,
            posting: false,
            reacked: false,
        };
        match admission {
            Admission::Run {
                arguments,
                deadline,
            } => self.out.push_back(Output::RunHandler {
                call_id: call_id.clone(),
                run_id,
                tool: entry.tool.clone(),
                arguments,
                deadline_ms: deadline.as_ms(),
            }),
            Admission::Answer(answer) => entry.result = Some(result_of(answer)),
            Admission::Duplicate => {}
        }
        self.calls.live.insert(call_id, entry);
    }

    /// A dispatched call whose data could not be read: answered `is_error` when its
    /// `client_id` (this client's) and `call_id` can be read. False if they cannot.
    pub fn answer_unreadable_call(&mut self, value: &Value, error: &str, now: u64) -> bool {
        let field = |name: &str| value.get(name).and_then(Value::as_str);
        let (Some(client_id), Some(call_id)) = (field("client_id"), field("call_id")) else {
            return false;
        };
        let Some(reg) = &self.reg else { return true };
        if client_id != reg.id || !self.calls.runtime.mark_seen(call_id) {
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
                if let Some(server) = deadline {
                    let earlier = server.saturating_sub(RESULT_MARGIN_MS);
                    let runtime = &mut self.calls.runtime;
                    if runtime.bring_deadline_forward(call_id, Instant::from_ms(earlier)) {
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
    pub fn on_handler_done(&mut self, call_id: &str, returned: Returned, now: u64) {
        if !self.calls.contains(call_id) {
            return;
        }
        let Some(answer) = self.calls.runtime.finish(call_id, returned) else {
            return;
        };
        if let Some(call) = self.calls.live.get_mut(call_id) {
            call.result = Some(result_of(answer));
        }
        self.try_post(call_id, now);
    }

    /// Answers "timed out after N ms" for handlers past their local deadline and aborts them.
    pub fn expire_calls(&mut self, now: u64) {
        for (call_id, answer) in self.calls.runtime.expire(Instant::from_ms(now)) {
            let Some(call) = self.calls.live.get_mut(&call_id) else {
                continue;
            };
            let result = result_of(answer);
            self.out.push_back(Output::AbortHandler {
                call_id: call_id.clone(),
                reason: result.text.clone(),
            });
            call.result = Some(result);
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
        if self.calls.runtime.cancel(call_id) {
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

/// A runtime answer as the Sessions API's result: text within 65,536 characters.
fn result_of(answer: calls::Answer) -> CallResult {
    let (text, is_error) = answer.into_text(ResultLimit::SESSIONS);
    CallResult { text, is_error }
}
