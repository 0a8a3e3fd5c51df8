//! A dispatched call whose ids are readable is always answered, even when the JSON parser
//! refuses its text whole: arguments nested deeper than it reads (serde_json stops at 128
//! levels, the browser's walker likewise) or a number out of range (`1e400`). The call is
//! acked and answered `is_error`, saying why, on the stream and in the pending calls.

mod engine_support;

use client_tools_core::engine::Method;
use engine_support::*;
use serde_json::json;

/// `n` arrays, one inside the other.
fn nested(n: usize) -> String {
    "[".repeat(n) + &"]".repeat(n)
}

/// A dispatched call's JSON with `arguments` written as the raw text `arguments`.
fn call_text(call_id: &str, arguments: &str) -> String {
    dispatched_json(CLIENT, "run_1", call_id, "noop", json!("ARGUMENTS"))
        .to_string()
        .replace("\"ARGUMENTS\"", arguments)
}

fn result_of(h: &mut Harness, call_id: &str) -> (String, bool) {
    h.ack_ok(call_id);
    let r = h.take_send(Method::Post, &format!("/calls/{call_id}/result"));
    let body = body_json(&r);
    (
        body["text"].as_str().unwrap().to_owned(),
        body["is_error"].as_bool().unwrap(),
    )
}

/// Arguments the parser refuses, each with what the answer must name.
fn unreadable_arguments() -> [(String, &'static str); 3] {
    [
        (format!("{{\"rows\":{}}}", nested(200)), "recursion limit"),
        (r#"{"n":1e400}"#.to_owned(), "number out of range"),
        // Deep and with strings that hold brackets and escaped quotes.
        (
            format!(r#"{{"s":"]}}\"[{{","d":{}}}"#, nested(129)),
            "recursion limit",
        ),
    ]
}

#[test]
fn a_streamed_call_with_unreadable_arguments_is_acked_and_answered_is_error() {
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    for (i, (arguments, why)) in unreadable_arguments().into_iter().enumerate() {
        let call_id = format!("call_{i}");
        let text = call_text(&call_id, &arguments);
        assert!(serde_json::from_str::<serde_json::Value>(&text).is_err());
        h.bytes(
            s,
            &format!("id: {i}\nevent: client_tool_dispatched\ndata: {text}\n\n"),
        );
        let (text, is_error) = result_of(&mut h, &call_id);
        assert!(is_error, "{text}");
        assert!(
            text.starts_with("The call could not be read: arguments: ") && text.contains(why),
            "{text}"
        );
    }
    assert!(h.handlers_run().is_empty());
    // Answered, so not also reported as an ignored event.
    assert!(h.statuses().is_empty(), "{:?}", h.statuses());
}

#[test]
fn a_pending_list_the_parser_refuses_still_runs_or_answers_each_call() {
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    h.bytes(s, "event: stream_reset\ndata:\n\n");
    let pending = h.take_send(Method::Get, "/calls");
    let [(deep, _), (huge, _), _] = unreadable_arguments();
    let other = dispatched_json("cli_other", "run_1", "call_x", "noop", json!({})).to_string();
    let body = format!(
        r#"{{"calls": [{}, {}, {}, {other}, {}]}}"#,
        call_text("call_ok", "{}"),
        call_text("call_deep", &deep),
        call_text("call_huge", &huge),
        // No call id: nothing to answer.
        r#"{"client_id":"cli_1","tool":"noop","arguments":[1e400]}"#,
    );
    assert!(serde_json::from_str::<serde_json::Value>(&body).is_err());
    h.answer(&pending, 200, &body);
    assert_eq!(h.count_sends(Method::Post, "/ack"), 3);
    h.ack_ok("call_ok");
    let run: Vec<&str> = h.handlers_run().iter().map(|r| r.0).collect();
    assert_eq!(run, ["call_ok"]);
    for (call_id, why) in [
        ("call_deep", "recursion limit"),
        ("call_huge", "number out of range"),
    ] {
        let (text, is_error) = result_of(&mut h, call_id);
        assert!(is_error && text.contains(why), "{text}");
    }
    // The call without an id is reported, once.
    let messages: Vec<String> = h.statuses().iter().map(|s| format!("{s:?}")).collect();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].contains("ignored an unreadable pending call"),
        "{messages:?}"
    );
}

#[test]
fn a_pending_answer_that_is_not_json_at_all_is_reported() {
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    h.bytes(s, "event: stream_reset\ndata:\n\n");
    let pending = h.take_send(Method::Get, "/calls");
    h.answer(&pending, 200, "<html>busy</html>");
    let messages: Vec<String> = h.statuses().iter().map(|s| format!("{s:?}")).collect();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(messages[0].contains("pending calls"), "{messages:?}");
    assert!(h.sends().is_empty());
}

/// The unreadable-event errors told so far.
fn unreadable_told(h: &Harness) -> Vec<String> {
    h.statuses()
        .into_iter()
        .filter_map(|s| match s {
            client_tools_core::engine::Status::Error { message, .. }
                if message.starts_with("ignored an unreadable stream event") =>
            {
                Some(message.clone())
            }
            _ => None,
        })
        .collect()
}

/// Issue 39: 731 KB of unreadable events were 20,000 `onStatus` callbacks. Errors of one kind
/// are told once a second at most; those held back come as one, with their count, when the
/// second ends.
#[test]
fn a_burst_of_unreadable_events_is_told_once_a_second_with_a_count() {
    use client_tools_core::engine::ERROR_REPORT_INTERVAL;
    let interval = ERROR_REPORT_INTERVAL.as_ms();
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    let start = h.now;
    let event = "event: client_tool_acked\ndata: {\"type\":1}\n\n";
    h.bytes(s, &event.repeat(20_000));
    let told = unreadable_told(&h);
    assert_eq!(told.len(), 1, "the first at once, the rest held back");
    assert_eq!(more_like_it(&told[0]), 0);
    assert!(h.next_deadline().unwrap() <= start + interval);
    h.advance_to(start + interval);
    let told = unreadable_told(&h);
    assert_eq!(told.len(), 2, "{told:#?}");
    assert_eq!(more_like_it(&told[1]), 19_998, "{}", told[1]);

    // One every 10 ms for 3 s: at most one told a second, none lost from the count.
    h.out.clear();
    for i in 1..=300 {
        h.now = start + interval + 10 * i;
        h.bytes(s, event);
        if h.next_deadline().is_some_and(|d| d <= h.now) {
            h.advance_to(h.now);
        }
    }
    h.advance_to(h.now + interval);
    let told = unreadable_told(&h);
    assert!((3..=4).contains(&told.len()), "{told:#?}");
    let all: u64 = told.iter().map(|m| 1 + more_like_it(m)).sum();
    assert_eq!(all, 300, "{told:#?}");
}

#[test]
fn after_the_clock_jumps_backwards_an_unreadable_event_is_told_at_once() {
    let mut h = Harness::registered(config());
    let s = h.stream_id();
    let event = "event: client_tool_acked\ndata: {\"type\":1}\n\n";
    h.bytes(s, event);
    h.bytes(s, event);
    assert_eq!(unreadable_told(&h).len(), 1);
    // An hour back (the user set the clock): the held one is due now, not in an hour.
    h.now -= 3_600_000;
    h.bytes(s, event);
    let told = unreadable_told(&h);
    assert_eq!(told.len(), 2, "{told:#?}");
    assert_eq!(more_like_it(&told[1]), 1, "{}", told[1]);
    // And a held one after it is due within the interval of the new clock.
    h.bytes(s, event);
    assert!(h.next_deadline().unwrap() <= h.now + 1000);
}
