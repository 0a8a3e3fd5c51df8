//! Calls in progress, as the Sessions API sees them: dispatch (only this client's, each
//! `call_id` once), ack, the handler and its local deadline, the result (held while a tool
//! list is on its way), and the server failing a call. What every transport shares (each id
//! once, run counts, argument checks, deadlines, result conventions) is the
//! [`CallRuntime`]'s.

use super::config::ToolDef;
use super::io::{CallEvent, Output};
use super::outbox::{Outbox, Topic};
use super::requests::{Answer, ReqKind, Requests};
use crate::calls::{self, Admission, CallRuntime, ResultLimit, Returned};
use crate::protocol::time::parse_rfc3339;
use crate::protocol::{AckAnswer, CallResult, ErrorType, FromJson, ToolDispatched};
use crate::str_map::StrMap;
use crate::time::{Duration, Instant};
use serde_json::Value;

/// A local deadline ends at least this long before the server's result deadline, so the
/// "timed out" result arrives before the server fails the call. The server's deadline is read
/// by the page's clock: a clock far off the server's moves the local deadline with it.
pub(crate) const RESULT_MARGIN: Duration = Duration::from_ms(2_000);

/// How far the server's clock and this one may differ before the server's deadlines are not
/// taken as they read: a deadline outside its window from now (60 s for an ack, 5 min for a
/// result) by more than this means the clocks disagree, and the window from now is used.
pub const CLOCK_TOLERANCE: Duration = Duration::from_ms(5_000);
/// The most calls one client has in progress (dispatched, not yet answered or failed). A call
/// past it is not acknowledged and its handler does not run: it stays in the server's pending
/// calls, and this client takes it from there once half of its calls have ended, if its
/// `ack_deadline` has not passed; else the server fails it (`ack_timeout`), and the model
/// reads that. The app is told once per overload. Not answered `is_error` instead: that would
/// be two requests (ack, result) per refused call, a burst of 100,000 calls 200,000 requests
/// that compete with the pings, and a memory entry each until they are answered.
pub const MAX_LIVE_CALLS: usize = 1_000;

/// The reason of a call ended because its registration lapsed: no ack or result goes to a
/// registration the server forgot; the server fails its calls (`client_gone`).
pub(crate) const LAPSED: &str = "registration_lapsed";

/// The protocol's windows: an ack within 60 s of the dispatch, a result within 5 min of it.
const ACK_WINDOW: Duration = Duration::from_secs(60);
const RESULT_WINDOW: Duration = Duration::from_secs(300);

/// Which of a call's two server deadlines.
#[derive(Clone, Copy)]
pub(super) enum Deadline {
    /// `ack_deadline`, from the dispatch.
    Ack,
    /// `result_deadline`, from the ack's answer.
    Result,
}

impl Deadline {
    /// The request it bounds.
    fn request(self) -> &'static str {
        match self {
            Deadline::Ack => "ack",
            Deadline::Result => "result",
        }
    }

    fn field(self) -> &'static str {
        match self {
            Deadline::Ack => "ack_deadline",
            Deadline::Result => "result_deadline",
        }
    }

    /// The reason a call fails by, when this deadline passes: the server's word for it.
    fn reason(self) -> &'static str {
        match self {
            Deadline::Ack => "ack_timeout",
            Deadline::Result => "result_timeout",
        }
    }

    fn window(self) -> Duration {
        match self {
            Deadline::Ack => ACK_WINDOW,
            Deadline::Result => RESULT_WINDOW,
        }
    }

    /// The earliest the deadline may read by this clock without the clocks disagreeing. An
    /// ack deadline may have passed (a call read late from the pending list); a result
    /// deadline is set when the ack is taken, a window ahead, so one in the past is a clock
    /// behind this one.
    fn earliest(self, now: Instant) -> Instant {
        match self {
            Deadline::Ack => now - CLOCK_TOLERANCE,
            Deadline::Result => now,
        }
    }

    /// The deadline `text` (RFC 3339, the server's clock) as this clock reads it, not before
    /// `now`; `Err` with it as read when it does not fit the window from now, and then the
    /// window from now. Absent or unreadable: the window from now.
    fn read(self, text: Option<&str>, now: Instant) -> Result<Instant, (Instant, Instant)> {
        let fallback = now + self.window();
        let Some(server) = text.and_then(parse_rfc3339).map(Instant::from_ms) else {
            return Ok(fallback);
        };
        if server < self.earliest(now) || server > fallback + CLOCK_TOLERANCE {
            return Err((fallback, server));
        }
        Ok(server.max(now))
    }
}

/// Cuts a result over 65,536 characters at a character boundary and says how much was cut,
/// keeping the whole within the limit.
pub fn cut_result(text: String) -> String {
    ResultLimit::SESSIONS.cut(text)
}

/// A handler that waits for its call's ack: it runs only once the server took the ack, so
/// that no handler runs for a call the server fails before it is acked.
#[derive(Debug)]
struct Waiting {
    run_id: String,
    arguments: serde_json::Map<String, Value>,
}

/// One call in progress.
#[derive(Debug)]
struct Call {
    /// Its place in dispatch order (see `Calls::order`).
    seq: u64,
    /// The registration it was dispatched to (its answers go there even after a new one).
    client_id: String,
    tool: String,
    /// The handler to start once acked; `None` once started, or for a call with no handler.
    waiting: Option<Waiting>,
    dispatched_at: Instant,
    acked: bool,
    /// The answer, once known; posted when acked and no tool list is pending.
    result: Option<CallResult>,
    posting: bool,
    /// The ack was sent again after a `409 call_not_acked` (once only).
    reacked: bool,
    /// No ack goes out after this: the server's `ack_deadline` as this clock reads it.
    ack_by: Instant,
    /// No result goes out after this: the server's `result_deadline`, once acked.
    result_by: Instant,
}

impl Call {
    fn new(seq: u64, client_id: String, tool: String, ack_by: Instant, now: Instant) -> Call {
        Call {
            seq,
            client_id,
            tool,
            waiting: None,
            dispatched_at: now,
            acked: false,
            result: None,
            posting: false,
            reacked: false,
            ack_by,
            result_by: now + RESULT_WINDOW,
        }
    }
}

/// The calls in progress and the runtime that runs their handlers. `hold` arguments say
/// whether results must wait (a tool list the server does not have yet is on its way).
#[derive(Debug, Default)]
pub(super) struct Calls {
    live: StrMap<Call>,
    /// The ids in dispatch order, with each call's `seq`; an entry whose call ended (or whose
    /// `seq` is not the live call's) is skipped, and swept out once such entries outnumber the
    /// live calls. So outputs come in dispatch order without sorting.
    order: Vec<(u64, Box<str>)>,
    next_seq: u64,
    runtime: CallRuntime,
    /// The app was told that the server's deadlines do not fit this clock (once).
    skew_told: bool,
    /// Calls were left unacknowledged at [`MAX_LIVE_CALLS`] since the pending calls were last
    /// read for them (the app was told).
    over_cap: bool,
    /// Calls that ended (answered or failed) so far.
    ended: u64,
    /// A pending-calls answer was cut at its read limit when `ended` was this: the rest is
    /// read once a call has ended since (the cut answer listed the calls in progress first).
    cut_at: Option<u64>,
}

impl Calls {
    pub(super) fn len(&self) -> usize {
        self.live.len()
    }

    pub(super) fn contains(&self, call_id: &str) -> bool {
        self.live.contains_key(call_id)
    }

    /// The earliest local deadline of a running handler.
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        self.runtime.next_deadline()
    }

    /// The run ended: its call counts go.
    pub(super) fn forget_run(&mut self, run_id: &str) {
        self.runtime.forget_run(run_id);
    }

    /// A call of this client (the engine checked its `client_id`), from the stream or the
    /// pending calls. Each `call_id` once; acked at once; the handler runs unless the call is
    /// answered at once.
    pub(super) fn dispatched(
        &mut self,
        call: ToolDispatched,
        tools: &[ToolDef],
        now: Instant,
        requests: &mut Requests,
        out: &mut Outbox,
    ) {
        let ToolDispatched {
            run_id,
            client_id,
            call_id,
            tool,
            arguments,
            ack_deadline,
            ..
        } = call;
        // Delivered again (a replay, the pending list) while in progress: it runs once and is
        // answered once, however many calls came since.
        if self.live.contains_key(&call_id) || self.at_cap(&call_id, &tool, out) {
            return;
        }
        let ids = calls::Call {
            call_id: &call_id,
            run_id: &run_id,
            tool: &tool,
        };
        let admission = self.runtime.admit(ids, arguments, tools, now);
        if admission == Admission::Duplicate {
            return;
        }
        out.call(CallEvent::Dispatched {
            call_id: call_id.clone(),
            tool: tool.clone(),
            run_id: run_id.clone(),
        });
        let ack_by = self.deadline(Deadline::Ack, ack_deadline.as_deref(), now, out);
        send_ack(&client_id, &call_id, ack_by, requests, now, out);
        let mut entry = self.new_call(&call_id, client_id, tool, ack_by, now);
        match admission {
            // It runs once the ack is taken (`on_ack_answer`).
            Admission::Run { arguments, .. } => entry.waiting = Some(Waiting { run_id, arguments }),
            Admission::Answer(answer) => entry.result = Some(result_of(answer)),
            Admission::Duplicate => {}
        }
        self.live.insert(&call_id, entry);
    }

    /// A new call's entry, placed last in dispatch order.
    fn new_call(
        &mut self,
        call_id: &str,
        client_id: String,
        tool: String,
        ack_by: Instant,
        now: Instant,
    ) -> Call {
        self.next_seq += 1;
        if self.order.len() > 2 * self.live.len() + 16 {
            let live = &self.live;
            self.order
                .retain(|(seq, id)| live.get(id).is_some_and(|c| c.seq == *seq));
        }
        self.order.push((self.next_seq, call_id.into()));
        Call::new(self.next_seq, client_id, tool, ack_by, now)
    }

    /// Whether a new call must be left unacknowledged: [`MAX_LIVE_CALLS`] are in progress.
    /// The app is told once until the pending calls are read again for the calls left.
    fn at_cap(&mut self, call_id: &str, tool: &str, out: &mut Outbox) -> bool {
        if self.live.len() < MAX_LIVE_CALLS {
            return false;
        }
        if !std::mem::replace(&mut self.over_cap, true) {
            out.error(
                Topic::LiveCallCap,
                format!(
                    "{MAX_LIVE_CALLS} calls are in progress, the most this client takes: call \
                 {call_id} ({tool}) and the calls after it are not acknowledged and their \
                 handlers do not run; this client reads them from the pending calls once half \
                 of its calls have ended, and the server fails any whose ack_deadline passes \
                 first (ack_timeout)"
                ),
            );
        }
        true
    }

    /// Whether calls were left at the cap and half of [`MAX_LIVE_CALLS`] have ended since:
    /// the pending calls are to be read again (once).
    pub(super) fn take_room(&mut self) -> bool {
        if self.over_cap && self.live.len() <= MAX_LIVE_CALLS / 2 {
            self.over_cap = false;
            self.cut_at = None;
            return true;
        }
        if self.cut_at.is_some_and(|at| self.ended > at) && !self.full() {
            self.cut_at = None;
            return true;
        }
        false
    }

    /// A pending-calls answer was cut at its read limit: the rest is read once a call ended.
    pub(super) fn pending_cut(&mut self) {
        self.cut_at = Some(self.ended);
    }

    /// Whether a call dispatched now would be left at the cap: a pending-calls answer need
    /// not be read further.
    pub(super) fn full(&self) -> bool {
        self.live.len() >= MAX_LIVE_CALLS
    }

    /// A dispatched call whose data could not be read: answered `is_error` when its
    /// `client_id` and `call_id` can be read and it is `my_id`'s. False if they cannot.
    pub(super) fn unreadable(
        &mut self,
        value: &Value,
        my_id: Option<&str>,
        error: &str,
        now: Instant,
        requests: &mut Requests,
        out: &mut Outbox,
    ) -> bool {
        let field = |name: &str| value.get(name).and_then(Value::as_str);
        let (Some(client_id), Some(call_id)) = (field("client_id"), field("call_id")) else {
            return false;
        };
        let tool = field("tool").unwrap_or_default().to_owned();
        if my_id != Some(client_id)
            || self.live.contains_key(call_id)
            || self.at_cap(call_id, &tool, out)
            || !self.runtime.mark_seen(call_id)
        {
            return true;
        }
        out.call(CallEvent::Dispatched {
            call_id: call_id.to_owned(),
            tool: tool.clone(),
            run_id: field("run_id").unwrap_or_default().to_owned(),
        });
        let ack_by = self.deadline(Deadline::Ack, field("ack_deadline"), now, out);
        send_ack(client_id, call_id, ack_by, requests, now, out);
        let mut call = self.new_call(call_id, client_id.to_owned(), tool, ack_by, now);
        call.result = Some(CallResult {
            text: format!("The call could not be read: {error}"),
            is_error: true,
        });
        self.live.insert(call_id, call);
        true
    }

    /// The answer to a call's ack.
    pub(super) fn on_ack_answer(
        &mut self,
        call_id: &str,
        answer: Answer,
        now: Instant,
        hold: bool,
        requests: &mut Requests,
        out: &mut Outbox,
    ) {
        if !self.live.contains_key(call_id) {
            return;
        }
        match answer {
            Answer::Ok(body) => {
                let text = AckAnswer::from_json(&body).ok().map(|a| a.result_deadline);
                let result_by = self.deadline(Deadline::Result, text.as_deref(), now, out);
                let earlier = result_by - RESULT_MARGIN;
                let moved = self.runtime.bring_deadline_forward(call_id, earlier);
                let Some(call) = self.live.get_mut(call_id) else {
                    return;
                };
                call.acked = true;
                call.result_by = result_by;
                out.call(CallEvent::Acked {
                    call_id: call_id.to_owned(),
                    tool: call.tool.clone(),
                    elapsed: now.since(call.dispatched_at),
                });
                match call.waiting.take() {
                    // The ack is taken: the handler starts, by the deadline as it stands now.
                    Some(Waiting { run_id, arguments }) => {
                        if let Some(deadline) = self.runtime.deadline(call_id) {
                            out.push(Output::RunHandler {
                                call_id: call_id.to_owned(),
                                run_id,
                                tool: call.tool.clone(),
                                arguments,
                                deadline,
                            });
                        }
                    }
                    // Acked again (after a `409 call_not_acked`) while it runs.
                    None if moved => out.push(Output::HandlerDeadline {
                        call_id: call_id.to_owned(),
                        deadline: earlier,
                    }),
                    None => {}
                }
                self.try_post(call_id, now, hold, requests, out);
            }
            Answer::Refused {
                status,
                kind,
                message,
            } => {
                // `call_settled` and `not_found` are the server saying the call is over.
                let over = [ErrorType::CallSettled, ErrorType::NotFound];
                self.refused("ack", call_id, status, kind, &message, &over, now, out);
            }
        }
    }

    /// The server refused a call's `what` (`ack` or `result`) for good: the call ends with the
    /// error's type as its reason, and the app hears of it unless that type is one of `over`
    /// (the server saying the call is over anyway).
    #[allow(clippy::too_many_arguments)]
    fn refused(
        &mut self,
        what: &str,
        call_id: &str,
        status: u16,
        kind: Option<ErrorType>,
        message: &str,
        over: &[ErrorType],
        now: Instant,
        out: &mut Outbox,
    ) {
        if !kind.as_ref().is_some_and(|k| over.contains(k)) {
            out.error(
                Topic::CallRequestRefused,
                format!("{what} of call {call_id} refused ({status}): {message}"),
            );
        }
        let reason = match kind {
            Some(kind) => kind.as_str().to_owned(),
            None => format!("{what} refused ({status}): {message}"),
        };
        self.end(call_id, &reason, now, out);
    }

    /// Posts the call's result if it is known, acked, not on its way, and not held.
    fn try_post(
        &mut self,
        call_id: &str,
        now: Instant,
        hold: bool,
        requests: &mut Requests,
        out: &mut Outbox,
    ) {
        let Some(call) = self.live.get_mut(call_id) else {
            return;
        };
        let Some(result) = &call.result else { return };
        if !call.acked || call.posting || hold {
            return;
        }
        let body = result.to_json();
        call.posting = true;
        let kind = ReqKind::Result {
            call_id: call_id.to_owned(),
        };
        let by = call.result_by;
        requests.send_for_call(kind, &call.client_id, Some(body), by, now, out);
    }

    /// Posts every result that waited (for a tool list, or an ack).
    pub(super) fn post_waiting(
        &mut self,
        now: Instant,
        hold: bool,
        requests: &mut Requests,
        out: &mut Outbox,
    ) {
        if hold {
            return;
        }
        for id in self.ids_in_order(|c| c.result.is_some() && !c.posting) {
            self.try_post(&id, now, hold, requests, out);
        }
    }

    /// The answer to a call's result.
    pub(super) fn on_result_answer(
        &mut self,
        call_id: &str,
        answer: Answer,
        now: Instant,
        requests: &mut Requests,
        out: &mut Outbox,
    ) {
        let Some(call) = self.live.get_mut(call_id) else {
            return;
        };
        match answer {
            Answer::Ok(_) => {
                let Some(call) = self.live.remove(call_id) else {
                    return;
                };
                self.ended += 1;
                out.call(CallEvent::Answered {
                    call_id: call_id.to_owned(),
                    tool: call.tool,
                    is_error: call.result.is_some_and(|r| r.is_error),
                    elapsed: now.since(call.dispatched_at),
                });
            }
            // Settled already (failed by a deadline, or answered before): drop quietly.
            Answer::Refused {
                kind: Some(ErrorType::CallSettled),
                ..
            } => self.end(call_id, ErrorType::CallSettled.as_str(), now, out),
            // The server lost the ack: ack again, then the result follows.
            Answer::Refused {
                kind: Some(ErrorType::CallNotAcked),
                ..
            } if !call.reacked => {
                call.reacked = true;
                call.acked = false;
                call.posting = false;
                send_ack(&call.client_id, call_id, call.ack_by, requests, now, out);
            }
            Answer::Refused {
                status,
                kind,
                message,
            } => {
                let over = [ErrorType::NotFound];
                self.refused("result", call_id, status, kind, &message, &over, now, out)
            }
        }
    }

    /// A handler finished. Ignored if its answer is no longer wanted (timed out, failed).
    pub(super) fn handler_done(
        &mut self,
        call_id: &str,
        returned: Returned,
        now: Instant,
        hold: bool,
        requests: &mut Requests,
        out: &mut Outbox,
    ) {
        let Some(call) = self.live.get_mut(call_id) else {
            return;
        };
        let Some(answer) = self.runtime.finish(call_id, returned) else {
            return;
        };
        call.result = Some(result_of(answer));
        self.try_post(call_id, now, hold, requests, out);
    }

    /// Answers "timed out after N ms" for handlers past their local deadline and aborts them.
    pub(super) fn expire(
        &mut self,
        now: Instant,
        hold: bool,
        requests: &mut Requests,
        out: &mut Outbox,
    ) {
        for (call_id, answer) in self.runtime.expire(now) {
            let Some(call) = self.live.get_mut(&call_id) else {
                continue;
            };
            let result = result_of(answer);
            // A handler still waiting for its ack never starts.
            if call.waiting.take().is_none() {
                out.push(Output::AbortHandler {
                    call_id: call_id.clone(),
                    reason: result.text.clone(),
                });
            }
            call.result = Some(result);
            self.try_post(&call_id, now, hold, requests, out);
        }
    }

    /// `client_tool_failed`: the call is over; abort its handler and post nothing.
    pub(super) fn failed(
        &mut self,
        client_id: &str,
        call_id: &str,
        reason: &str,
        now: Instant,
        out: &mut Outbox,
    ) {
        if self
            .live
            .get(call_id)
            .is_some_and(|c| c.client_id == client_id)
        {
            self.end(call_id, reason, now, out);
        }
    }

    /// A call's ack or result failed and its retry would go out past the server's
    /// `deadline`: the server fails the call by it, so it ends now, by the server's word for
    /// that (`ack_timeout`, `result_timeout`), and the app hears how the request failed last.
    pub(super) fn deadline_passed(
        &mut self,
        call_id: &str,
        deadline: Deadline,
        now: Instant,
        out: &mut Outbox,
    ) {
        if !self.live.contains_key(call_id) {
            return;
        }
        let why = out.take_failure();
        let why = why.map_or_else(String::new, |f| format!(" (last: {f})"));
        out.error(
            Topic::CallDeadline,
            format!(
                "the {} of call {call_id} was not sent again: its {} passes first{why}",
                deadline.request(),
                deadline.field()
            ),
        );
        self.end(call_id, deadline.reason(), now, out);
    }

    /// A server deadline as this clock reads it (see [`Deadline::read`]); tells the app once
    /// when the clocks disagree.
    fn deadline(
        &mut self,
        which: Deadline,
        text: Option<&str>,
        now: Instant,
        out: &mut Outbox,
    ) -> Instant {
        match which.read(text, now) {
            Ok(at) => at,
            Err((fallback, server)) => {
                if !std::mem::replace(&mut self.skew_told, true) {
                    let (ahead, off) = if server > now {
                        ("ahead of", server.since(now + which.window()))
                    } else {
                        ("behind", now.since(server))
                    };
                    out.error(
                        Topic::ClockDisagrees,
                        format!(
                        "the server's {} reads {} ms {ahead} its window by this clock (tolerance \
                         {} ms): the clocks disagree, so deadlines are counted from this clock",
                        which.field(),
                        off.as_ms(),
                        CLOCK_TOLERANCE.as_ms()
                    ),
                    );
                }
                fallback
            }
        }
    }

    /// Ends a call without (further) answer: aborts a running handler, tells the app.
    fn end(&mut self, call_id: &str, reason: &str, now: Instant, out: &mut Outbox) {
        let Some(call) = self.live.remove(call_id) else {
            return;
        };
        self.ended += 1;
        // A handler still waiting for its ack never starts: nothing to abort.
        if self.runtime.cancel(call_id) && call.waiting.is_none() {
            out.push(Output::AbortHandler {
                call_id: call_id.to_owned(),
                reason: reason.to_owned(),
            });
        }
        out.call(CallEvent::Failed {
            call_id: call_id.to_owned(),
            tool: call.tool,
            reason: reason.to_owned(),
            elapsed: now.since(call.dispatched_at),
        });
    }

    /// Ends every call (leaving, or stopping for good).
    pub(super) fn end_all(&mut self, reason: &str, now: Instant, out: &mut Outbox) {
        for id in self.ids_in_order(|_| true) {
            self.end(&id, reason, now, out);
        }
    }

    /// The registration `client_id` lapsed: its calls end here ([`LAPSED`]) with no ack or
    /// result sent for them (the server fails them), and a handler waiting for its ack never
    /// starts. Their requests are forgotten, so a shell that still holds one does not send it.
    pub(super) fn lapsed(
        &mut self,
        client_id: &str,
        now: Instant,
        requests: &mut Requests,
        out: &mut Outbox,
    ) {
        let ids = self.ids_in_order(|c| c.client_id == client_id);
        if ids.is_empty() {
            return;
        }
        for id in &ids {
            self.end(id, LAPSED, now, out);
        }
        let live = &self.live;
        requests.forget(&|k| match k {
            ReqKind::Ack { call_id } | ReqKind::Result { call_id } => !live.contains_key(call_id),
            _ => false,
        });
    }

    /// The ids of the calls that pass `filter`, in dispatch order, so outputs come in an
    /// order that does not depend on hashing.
    fn ids_in_order(&self, filter: impl Fn(&Call) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        for (seq, id) in &self.order {
            if let Some(c) = self.live.get(id) {
                if c.seq == *seq && filter(c) {
                    out.push(id.to_string());
                }
            }
        }
        out
    }
}

fn send_ack(
    client_id: &str,
    call_id: &str,
    ack_by: Instant,
    requests: &mut Requests,
    now: Instant,
    out: &mut Outbox,
) {
    let kind = ReqKind::Ack {
        call_id: call_id.to_owned(),
    };
    requests.send_for_call(kind, client_id, None, ack_by, now, out);
}

/// A runtime answer as the Sessions API's result: text within 65,536 characters.
fn result_of(answer: calls::Answer) -> CallResult {
    let (text, is_error) = answer.into_text(ResultLimit::SESSIONS);
    CallResult { text, is_error }
}
