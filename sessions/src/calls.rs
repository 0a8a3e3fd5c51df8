//! Calls: the model calls a tool (dispatch), the client acks and answers, deadlines fail what
//! is late. A call settles exactly once: `SessionCore::settle` is the only place an
//! outcome is written, and it refuses a call that already has one.

use crate::clients::live_client;
use crate::{Call, HttpError, Outcome, SessionCore};
use client_tools_core::protocol::time::format_rfc3339;
use client_tools_core::protocol::validate;
use client_tools_core::protocol::{CallResult, FailReason, ToolDispatched};
use serde::Serialize;
use serde_json::{json, Value};

/// A call as the agent side sees it (`GET …/runs/{run_id}/calls/{call_id}`, the console).
#[derive(Serialize, Clone, Debug)]
pub struct CallView {
    /// The call's id (`call_…`).
    pub call_id: String,
    /// The run in which the model made the call (`run_…`).
    pub run_id: String,
    /// The client whose tool is called (`cli_…`).
    pub client_id: String,
    /// The tool's name as the client declared it (without `client__<name>__`).
    pub tool: String,
    /// The arguments the model sent, a JSON object.
    pub arguments: Value,
    /// `pending`, `succeeded` or `failed`.
    pub state: &'static str,
    /// Whether the client acked the call.
    pub acked: bool,
    /// The result's text once `succeeded`; `None` otherwise.
    pub text: Option<String>,
    /// Whether the result reports a failure, once `succeeded`; `None` otherwise.
    pub is_error: Option<bool>,
    /// Why it failed (`client_gone`, `ack_timeout`, `result_timeout`, `run_gone`) once
    /// `failed`; `None` otherwise.
    pub reason: Option<&'static str>,
    /// When the model made the call: RFC 3339, UTC.
    pub dispatched_at: String,
}

impl SessionCore {
    /// The model calls `client__<name>__<tool>` with `arguments` (absent or null is `{}`):
    /// emits `client_tool_dispatched` and starts the ack deadline.
    ///
    /// Fails with 400 for bad arguments, 404 for an unknown run or a tool no live client
    /// offers, 409 for an ended run, 429 past `--max-pending-calls`.
    pub fn dispatch(
        &mut self,
        run_id: &str,
        tool: &str,
        arguments: Value,
        now: u64,
    ) -> Result<String, HttpError> {
        let arguments = validate::arguments(&arguments)?;
        let (client_name, tool_name) = tool
            .strip_prefix("client__")
            .and_then(|rest| rest.split_once("__"))
            .ok_or_else(|| {
                HttpError::invalid(
                    "tool",
                    format!("{tool:?} is not a client tool name, client__<client>__<tool>"),
                )
            })?;
        let st = self;
        st.active_run(run_id)?;
        if st.pending_count >= st.limits.max_pending_calls {
            return Err(HttpError::rate_limited(
                1,
                format!("{} calls are pending, the limit", st.pending_count),
            ));
        }
        let client = st
            .clients
            .values()
            .find(|c| c.name == client_name && c.tools.iter().any(|t| t.name == tool_name))
            .ok_or_else(|| {
                let mut e = HttpError::not_found(format!("no live client offers {tool:?} now"));
                e.param = Some("tool".to_owned());
                e
            })?;
        let client_id = client.id.clone();
        let call_id = st.new_id("call");
        let seq = st.next_seq();
        let ack_deadline = now.saturating_add(st.limits.ack_timeout_ms);
        let call = Call {
            id: call_id.clone(),
            seq,
            run_id: run_id.to_owned(),
            client_id,
            tool: tool_name.to_owned(),
            arguments,
            dispatched: now,
            ack_deadline,
            result_deadline: None,
            outcome: None,
        };
        let payload = st.dispatched(&call);
        let data = serde_json::to_value(payload).unwrap_or_default();
        st.log.emit("client_tool_dispatched", data);
        st.calls.insert(call_id.clone(), call);
        st.pending_count += 1;
        Ok(call_id)
    }

    fn dispatched(&self, call: &Call) -> ToolDispatched {
        ToolDispatched {
            session_id: self.id.clone(),
            run_id: call.run_id.clone(),
            client_id: call.client_id.clone(),
            call_id: call.id.clone(),
            tool: call.tool.clone(),
            arguments: Value::Object(call.arguments.clone()),
            ack_deadline: Some(format_rfc3339(call.ack_deadline)),
        }
    }

    /// Acks a call of this client and answers its `result_deadline`; a second ack answers the
    /// same deadline. Fails with 404 (client or call unknown, or another client's call) or
    /// 409 `call_settled`.
    pub fn ack(&mut self, client_id: &str, call_id: &str, now: u64) -> Result<String, HttpError> {
        let result_timeout_ms = self.limits.result_timeout_ms;
        let call = owed_call(self, client_id, call_id)?;
        if let Some(deadline) = call.result_deadline {
            return Ok(format_rfc3339(deadline));
        }
        let deadline = now.saturating_add(result_timeout_ms);
        call.result_deadline = Some(deadline);
        let at = format_rfc3339(deadline);
        self.log.emit(
            "client_tool_acked",
            json!({"client_id": client_id, "call_id": call_id, "result_deadline": at}),
        );
        Ok(at)
    }

    /// Answers an acked call of this client: it settles as succeeded (whatever `is_error`
    /// says). Fails with 400 for a text over 65,536 characters, 404, 409 `call_not_acked` or
    /// 409 `call_settled`.
    pub fn answer(
        &mut self,
        client_id: &str,
        call_id: &str,
        result: CallResult,
    ) -> Result<(), HttpError> {
        validate::result_text(&result.text)?;
        let call = owed_call(self, client_id, call_id)?;
        if call.result_deadline.is_none() {
            return Err(HttpError::conflict(
                "call_not_acked",
                format!("call {call_id} was never acked: ack it before answering"),
            ));
        }
        let is_error = result.is_error;
        self.settle(
            call_id,
            Outcome::Succeeded {
                text: result.text,
                is_error,
            },
        );
        Ok(())
    }

    /// The calls dispatched to this client that have not settled, in dispatch order.
    pub fn pending_calls(&mut self, client_id: &str) -> Result<Vec<ToolDispatched>, HttpError> {
        live_client(self, client_id)?;
        let mut calls: Vec<&Call> = self
            .calls
            .values()
            .filter(|c| c.client_id == client_id && c.outcome.is_none())
            .collect();
        calls.sort_by_key(|c| c.seq);
        Ok(calls.into_iter().map(|c| self.dispatched(c)).collect())
    }

    /// A call of a run as the agent sees it.
    pub fn call_view(&self, run_id: &str, call_id: &str) -> Result<CallView, HttpError> {
        match self.calls.get(call_id) {
            Some(call) if call.run_id == run_id => Ok(self.view(call)),
            _ => Err(HttpError::not_found(format!(
                "no call {call_id} in run {run_id} (unknown, or settled long ago and pruned)"
            ))),
        }
    }

    pub(crate) fn view(&self, call: &Call) -> CallView {
        let (state, text, is_error, reason) = match &call.outcome {
            None => ("pending", None, None, None),
            Some(Outcome::Succeeded { text, is_error }) => {
                ("succeeded", Some(text.clone()), Some(*is_error), None)
            }
            Some(Outcome::Failed(reason)) => ("failed", None, None, Some(reason.as_str())),
        };
        CallView {
            call_id: call.id.clone(),
            run_id: call.run_id.clone(),
            client_id: call.client_id.clone(),
            tool: call.tool.clone(),
            arguments: Value::Object(call.arguments.clone()),
            state,
            acked: call.result_deadline.is_some(),
            text,
            is_error,
            reason,
            dispatched_at: format_rfc3339(call.dispatched),
        }
    }

    /// A call's deadline step: fails the call with `ack_timeout` or `result_timeout` if its
    /// deadline has passed, else says when to look again. `None`: it settled (or is unknown).
    pub fn fail_if_late(&mut self, call_id: &str, now: u64) -> Option<u64> {
        let call = self.calls.get(call_id)?;
        if call.outcome.is_some() {
            return None;
        }
        let (deadline, reason) = match call.result_deadline {
            None => (call.ack_deadline, FailReason::AckTimeout),
            Some(at) => (at, FailReason::ResultTimeout),
        };
        if now < deadline {
            return Some(deadline);
        }
        self.fail(call_id, reason);
        None
    }

    /// Settles a pending call as failed with `reason`.
    pub(crate) fn fail(&mut self, call_id: &str, reason: FailReason) {
        self.settle(call_id, Outcome::Failed(reason));
    }

    /// The one place a call settles: a call that already has an outcome keeps it.
    fn settle(&mut self, call_id: &str, outcome: Outcome) {
        let st = self;
        let Some(call) = st.calls.get_mut(call_id) else {
            return;
        };
        if call.outcome.is_some() {
            return;
        }
        let data = match &outcome {
            Outcome::Succeeded { is_error, .. } => (
                "client_tool_succeeded",
                json!({"client_id": call.client_id, "call_id": call.id, "is_error": is_error}),
            ),
            Outcome::Failed(reason) => (
                "client_tool_failed",
                json!({"client_id": call.client_id, "call_id": call.id, "reason": reason.as_str()}),
            ),
        };
        call.outcome = Some(outcome);
        st.pending_count -= 1;
        st.log.emit(data.0, data.1);
        st.settled_order.push_back(call_id.to_owned());
        while st.settled_order.len() > st.limits.settled_calls {
            if let Some(old) = st.settled_order.pop_front() {
                st.calls.remove(&old);
            }
        }
    }
}

/// The pending call `call_id` of the live client `client_id`, or the error that says why not.
fn owed_call<'a>(
    st: &'a mut SessionCore,
    client_id: &str,
    call_id: &str,
) -> Result<&'a mut Call, HttpError> {
    live_client(st, client_id)?;
    match st.calls.get_mut(call_id) {
        Some(call) if call.client_id == client_id => {
            if call.outcome.is_some() {
                Err(HttpError::conflict(
                    "call_settled",
                    format!("call {call_id} already settled"),
                ))
            } else {
                Ok(call)
            }
        }
        _ => Err(HttpError::not_found(format!(
            "client {client_id} has no call {call_id}"
        ))),
    }
}
