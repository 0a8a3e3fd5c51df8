//! The session rules in virtual time: no clock, no tasks; `now` is a number the test moves.

use client_tools_core::protocol::{CallResult, FailReason, Lifetime, RegisterRequest, ToolSpec};
use client_tools_sessions::{Limits, SessionCore};
use serde_json::json;
use std::sync::atomic::{AtomicU64, Ordering};

fn counting_id(prefix: &str) -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    format!("{prefix}_{}", N.fetch_add(1, Ordering::Relaxed))
}

fn session() -> SessionCore {
    SessionCore::new("ses_1".into(), Limits::default(), counting_id)
}

fn register(core: &mut SessionCore, lifetime: Lifetime, now: u64) -> String {
    let tool: ToolSpec = serde_json::from_value(json!({"name": "highlight_row"})).unwrap();
    let req = RegisterRequest {
        name: "web".into(),
        lifetime,
        tools: vec![tool],
    };
    core.register(req, now).unwrap().id
}

fn outcome(core: &SessionCore, run: &str, call: &str) -> &'static str {
    core.call_view(run, call).unwrap().state
}

#[test]
fn an_unacked_call_fails_with_ack_timeout_at_its_deadline_and_not_before() {
    let mut core = session();
    let client = register(&mut core, Lifetime::Never, 0);
    let run = core.start_run(0).unwrap();
    let call = core
        .dispatch(&run, "client__web__highlight_row", json!({}), 1_000)
        .unwrap();
    assert_eq!(core.next_deadline(), Some(61_000));
    assert_eq!(core.on_deadline(60_999), Some(61_000));
    assert_eq!(outcome(&core, &run, &call), "pending");
    assert_eq!(core.on_deadline(61_000), None);
    let view = core.call_view(&run, &call).unwrap();
    assert_eq!(
        (view.state, view.reason),
        ("failed", Some(FailReason::AckTimeout.as_str()))
    );
    let late = core.ack(&client, &call, 61_001).unwrap_err();
    assert_eq!((late.status, late.kind), (409, "call_settled"));
}

#[test]
fn an_ack_moves_the_deadline_to_the_result_deadline_and_an_answer_settles_once() {
    let mut core = session();
    let client = register(&mut core, Lifetime::Never, 0);
    let run = core.start_run(0).unwrap();
    let call = core
        .dispatch(&run, "client__web__highlight_row", json!({}), 0)
        .unwrap();
    let early = CallResult {
        text: "too soon".into(),
        is_error: false,
    };
    let refused = core.answer(&client, &call, early).unwrap_err();
    assert_eq!((refused.status, refused.kind), (409, "call_not_acked"));
    core.ack(&client, &call, 10_000).unwrap();
    assert_eq!(core.next_deadline(), Some(310_000));
    let done = CallResult {
        text: "Row 42 is highlighted.".into(),
        is_error: false,
    };
    core.answer(&client, &call, done.clone()).unwrap();
    assert_eq!(core.next_deadline(), None);
    let again = core.answer(&client, &call, done).unwrap_err();
    assert_eq!((again.status, again.kind), (409, "call_settled"));
    let kinds: Vec<&str> = core.log.page_after(0, 100).iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            "client_registered",
            "run_started",
            "client_tool_dispatched",
            "client_tool_acked",
            "client_tool_succeeded"
        ]
    );
}

#[test]
fn a_ttl_registration_lapses_unless_pinged_and_its_owed_calls_fail_client_gone() {
    let mut core = session();
    let client = register(&mut core, Lifetime::Ttl { seconds: 5 }, 0);
    let run = core.start_run(0).unwrap();
    let call = core
        .dispatch(&run, "client__web__highlight_row", json!({}), 0)
        .unwrap();
    core.ping(&client, 4_000).unwrap();
    core.on_deadline(5_000);
    assert!(
        core.client(&client).is_some(),
        "the ping moved the lapse to 9 s"
    );
    core.on_deadline(9_000);
    assert!(core.client(&client).is_none());
    let view = core.call_view(&run, &call).unwrap();
    assert_eq!(view.reason, Some(FailReason::ClientGone.as_str()));
    let gone = core.ping(&client, 9_001).unwrap_err();
    assert_eq!(gone.status, 404);
    assert_eq!(core.runs()[0].calls[0].state, "failed");
}
