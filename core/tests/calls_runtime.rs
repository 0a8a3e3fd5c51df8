//! The call runtime every transport shares: each id once, argument checks, per-run counts,
//! deadlines, the handler-result convention and the result limits.

use client_tools_core::calls::{
    is_result_like, Admission, Answer, Call, CallRuntime, Content, Cutoff, ErrorKind, ResultLimit,
    Returned, ToolDef, DONE_TEXT,
};
use client_tools_core::protocol::ToolSpec;
use client_tools_core::time::Instant;
use serde_json::{json, Value};

fn tools() -> Vec<ToolDef> {
    let row = ToolSpec {
        name: "highlight_row".into(),
        description: String::new(),
        parameters: Some(json!({
            "type": "object",
            "properties": { "row_id": { "type": "string" } },
            "required": ["row_id"]
        })),
    };
    let mut limited = ToolDef::new(ToolSpec {
        name: "limited".into(),
        description: String::new(),
        parameters: None,
    });
    limited.max_calls_per_run = Some(2);
    limited.timeout_ms = Some(500);
    vec![ToolDef::new(row), limited]
}

fn call<'a>(call_id: &'a str, tool: &'a str) -> Call<'a> {
    Call {
        call_id,
        run_id: "run_1",
        tool,
    }
}

const T0: Instant = Instant::from_ms(1_000_000);

fn err(kind: ErrorKind, message: &str) -> Answer {
    Answer::error(kind, message)
}

#[test]
fn a_call_runs_once_with_its_arguments_and_the_default_deadline() {
    let mut rt = CallRuntime::new();
    let a = rt.admit(
        call("c1", "highlight_row"),
        json!({"row_id": "42"}),
        &tools(),
        T0,
    );
    let Admission::Run {
        arguments,
        deadline,
    } = a
    else {
        panic!("{a:?}")
    };
    assert_eq!(Value::Object(arguments), json!({"row_id": "42"}));
    assert_eq!(deadline, Instant::from_ms(T0.as_ms() + 30_000));
    assert_eq!(
        rt.admit(
            call("c1", "highlight_row"),
            json!({"row_id": "42"}),
            &tools(),
            T0
        ),
        Admission::Duplicate
    );
    assert_eq!(
        rt.finish("c1", Returned::text("Row 42.")),
        Some(Answer::Ok(Content::Text("Row 42.".into())))
    );
    assert_eq!(
        rt.finish("c1", Returned::text("again")),
        None,
        "answered once"
    );
    assert_eq!(rt.running(), 0);
}

#[test]
fn arguments_as_a_json_string_are_read_and_null_is_empty() {
    let mut rt = CallRuntime::new();
    let a = rt.admit(
        call("c1", "highlight_row"),
        json!("{\"row_id\":\"7\"}"),
        &tools(),
        T0,
    );
    assert!(matches!(a, Admission::Run { .. }), "{a:?}");
    let a = rt.admit(call("c2", "limited"), Value::Null, &tools(), T0);
    assert!(matches!(a, Admission::Run { .. }), "{a:?}");
}

#[test]
fn refusals_are_answered_without_a_handler_with_their_kind() {
    let mut rt = CallRuntime::new();
    let t = tools();
    assert_eq!(
        rt.admit(call("c1", "nope"), json!({}), &t, T0),
        Admission::Answer(err(
            ErrorKind::UnknownTool,
            "Unknown tool \"nope\": this client offers highlight_row, limited."
        ))
    );
    assert_eq!(
        rt.admit(call("c2", "nope"), json!({}), &[], T0),
        Admission::Answer(err(
            ErrorKind::UnknownTool,
            "Unknown tool \"nope\": this client offers no tools now."
        ))
    );
    let Admission::Answer(Answer::Err { kind, message }) =
        rt.admit(call("c3", "highlight_row"), json!({"row_id": 42}), &t, T0)
    else {
        panic!()
    };
    assert_eq!(kind, ErrorKind::InvalidArguments);
    assert!(
        message.starts_with("Invalid arguments for \"highlight_row\": "),
        "{message}"
    );
    assert!(message.contains("row_id"), "{message}");
    let Admission::Answer(Answer::Err { kind, message }) =
        rt.admit(call("c4", "highlight_row"), json!([1]), &t, T0)
    else {
        panic!()
    };
    assert_eq!(kind, ErrorKind::InvalidArguments);
    assert!(message.contains("needs a JSON object"), "{message}");
    assert_eq!(rt.running(), 0);
}

#[test]
fn max_calls_per_run_counts_per_run_and_tool() {
    let mut rt = CallRuntime::new();
    let t = tools();
    for id in ["c1", "c2"] {
        assert!(matches!(
            rt.admit(call(id, "limited"), json!({}), &t, T0),
            Admission::Run { .. }
        ));
    }
    assert_eq!(
        rt.admit(call("c3", "limited"), json!({}), &t, T0),
        Admission::Answer(err(
            ErrorKind::TooManyCalls,
            "Tool \"limited\" allows at most 2 calls per run; this was call 3."
        ))
    );
    let other_run = Call {
        call_id: "c4",
        run_id: "run_2",
        tool: "limited",
    };
    assert!(matches!(
        rt.admit(other_run, json!({}), &t, T0),
        Admission::Run { .. }
    ));
    rt.forget_run("run_1");
    assert!(matches!(
        rt.admit(call("c5", "limited"), json!({}), &t, T0),
        Admission::Run { .. }
    ));
}

#[test]
fn a_handler_past_its_deadline_is_answered_timed_out_and_its_late_answer_dropped() {
    let mut rt = CallRuntime::new();
    let t = tools();
    rt.admit(call("c1", "limited"), json!({}), &t, T0);
    rt.admit(
        call("c2", "limited"),
        json!({}),
        &t,
        Instant::from_ms(T0.as_ms() + 100),
    );
    assert_eq!(rt.next_deadline(), Some(Instant::from_ms(T0.as_ms() + 500)));
    assert!(rt.expire(Instant::from_ms(T0.as_ms() + 499)).is_empty());
    let expired = rt.expire(Instant::from_ms(T0.as_ms() + 10_000));
    assert_eq!(
        expired,
        vec![
            (
                "c1".to_owned(),
                err(ErrorKind::Timeout, "timed out after 500 ms")
            ),
            (
                "c2".to_owned(),
                err(ErrorKind::Timeout, "timed out after 500 ms")
            ),
        ],
        "in the order they started"
    );
    assert_eq!(rt.finish("c1", Returned::text("late")), None);
    assert_eq!(rt.next_deadline(), None);
}

#[test]
fn the_callers_deadline_names_itself_when_it_cuts_a_call_short() {
    let mut rt = CallRuntime::new();
    rt.admit(call("c1", "limited"), json!({}), &tools(), T0);
    assert!(rt.cut_short("c1", Instant::from_ms(T0.as_ms() + 150), Cutoff::Caller));
    assert_eq!(
        rt.expire(Instant::from_ms(T0.as_ms() + 150)),
        vec![(
            "c1".to_owned(),
            err(
                ErrorKind::Timeout,
                "timed out after 150 ms (the caller's deadline)"
            )
        )]
    );
}

/// A shell that reads the convention from the value the handler returned (a tab: the JS value)
/// gets the answer the value itself would get.
#[test]
fn a_result_read_field_by_field_answers_as_the_value_would() {
    let cases = [
        json!({"isError": true, "text": "no such row"}),
        json!({"isError": false, "text": "ok"}),
        json!({"is_error": true, "text": "x"}),
        json!({"isError": "yes", "text": "x"}),
        json!({"success": true, "data": {"b": 1, "a": [2, 3]}}),
        json!({"success": true, "data": "text"}),
        json!({"success": true, "data": null}),
        json!({"success": true}),
        json!({"success": true, "data": 1.5}),
        json!({"success": false, "error": "API returned 503"}),
        json!({"success": false, "error": 5}),
        json!({"success": "yes"}),
    ];
    for value in cases {
        let Value::Object(mut fields) = value.clone() else {
            unreachable!()
        };
        assert!(is_result_like(fields.keys().map(String::as_str)), "{value}");
        // `data` as the shell hands it: JSON text unless a string or null.
        let data = match fields.get("data") {
            Some(d) if !d.is_null() && !d.is_string() => {
                fields.remove("data").map(|d| d.to_string())
            }
            _ => None,
        };
        assert_eq!(
            Answer::from_returned(Returned::Fields(fields, data)),
            Answer::from_returned(Returned::Value(value.clone())),
            "{value}"
        );
    }
    assert!(!is_result_like(["success", "rows"].into_iter()));
    assert!(!is_result_like(["text"].into_iter()));
    // Written text is taken as written: not parsed again, keys in the handler's order.
    assert_eq!(
        Answer::from_returned(Returned::Written(r#"{"z":1,"a":2}"#.into())),
        Answer::Ok(Content::Json(r#"{"z":1,"a":2}"#.into()))
    );
}

#[test]
fn a_deadline_comes_forward_never_back_and_cancel_stops_the_answer() {
    let mut rt = CallRuntime::new();
    rt.admit(call("c1", "limited"), json!({}), &tools(), T0);
    assert!(!rt.bring_deadline_forward("c1", Instant::from_ms(T0.as_ms() + 900)));
    assert!(rt.bring_deadline_forward("c1", Instant::from_ms(T0.as_ms() + 200)));
    assert_eq!(
        rt.expire(Instant::from_ms(T0.as_ms() + 200)),
        vec![(
            "c1".to_owned(),
            err(
                ErrorKind::Timeout,
                "timed out after 200 ms (the server's deadline for the result)"
            )
        )]
    );
    rt.admit(call("c2", "limited"), json!({}), &tools(), T0);
    assert!(rt.cancel("c2"));
    assert!(!rt.cancel("c2"), "once");
    assert_eq!(rt.finish("c2", Returned::Nothing), None);
    assert!(!rt.mark_seen("c2"), "a cancelled call is still seen");
    assert!(rt.mark_seen("c3"));
}

#[test]
fn the_result_convention_for_every_shape() {
    let ok_text = |t: &str| Answer::Ok(Content::Text(t.into()));
    let handler_error = |m: &str| err(ErrorKind::HandlerError, m);
    let cases: Vec<(Returned, Answer)> = vec![
        (Returned::Nothing, ok_text(DONE_TEXT)),
        (Returned::text("hi"), ok_text("hi")),
        (
            Returned::Value(json!(3)),
            Answer::Ok(Content::Json("3".into())),
        ),
        (
            Returned::Value(json!(null)),
            Answer::Ok(Content::Json("null".into())),
        ),
        (
            Returned::Value(json!({"rows": [1]})),
            Answer::Ok(Content::Json(r#"{"rows":[1]}"#.into())),
        ),
        (
            Returned::Value(json!({"isError": false, "text": "fine"})),
            ok_text("fine"),
        ),
        (
            Returned::Value(json!({"isError": true, "text": "no such row"})),
            handler_error("no such row"),
        ),
        (
            Returned::Value(json!({"success": true, "data": {"a": 1}})),
            Answer::Ok(Content::Json(r#"{"a":1}"#.into())),
        ),
        (
            Returned::Value(json!({"success": true, "data": "text"})),
            ok_text("text"),
        ),
        (
            Returned::Value(json!({"success": true})),
            ok_text(DONE_TEXT),
        ),
        (
            Returned::Value(json!({"success": false, "data": null, "error": "boom"})),
            handler_error("boom"),
        ),
        (
            Returned::Value(json!({"success": false})),
            handler_error("The tool failed."),
        ),
        (Returned::Threw("bad".into()), handler_error("bad")),
        (
            Returned::Unwritable("no JSON form".into()),
            handler_error("no JSON form"),
        ),
        (
            Returned::from(Err::<String, String>("e".into())),
            handler_error("e"),
        ),
    ];
    for (returned, want) in cases {
        assert_eq!(
            Answer::from_returned(returned.clone()),
            want,
            "{returned:?}"
        );
    }
}

#[test]
fn a_malformed_result_object_is_an_error_that_says_so() {
    let malformed = [
        (json!({"is_error": true, "text": "x"}), "the handler returned a malformed result object (it has is_error; the flag is spelled isError); expected { isError: boolean, text: string }"),
        (json!({"isError": "yes", "text": "x"}), "(isError must be true or false, got a string)"),
        (json!({"isError": true, "text": 5}), "(text must be a string, got a number)"),
        (json!({"isError": false}), "(text must be a string, got undefined)"),
        (json!({"success": "yes"}), "malformed ToolResult (success must be true or false, got a string); expected { success: boolean, data?, error?: string }"),
        (json!({"success": false, "error": 5}), "(error must be a string, got a number)"),
    ];
    for (value, says) in malformed {
        let answer = Answer::from_returned(Returned::Value(value.clone()));
        assert_eq!(
            Answer::from_returned(Returned::Json(value.to_string())),
            answer
        );
        let Answer::Err { kind, message } = &answer else {
            panic!("{value} was taken as a success: {answer:?}")
        };
        assert_eq!(*kind, ErrorKind::HandlerError);
        assert!(message.contains(says), "{value}: {message}");
    }
    // Plain JSON that only looks alike: an extra key beside `success` makes it data.
    let data = json!({"success": true, "count": 3});
    assert_eq!(
        Answer::from_returned(Returned::Value(data.clone())),
        Answer::Ok(Content::json(&data))
    );
    assert_eq!(
        Answer::from_returned(Returned::Value(
            json!({"isError": false, "text": "x", "n": 1})
        )),
        Answer::Ok(Content::Text("x".into())),
        "extra keys beside isError and text are let be"
    );
}

#[test]
fn into_text_writes_json_and_cuts_to_the_transport_limit() {
    let json = Answer::Ok(Content::json(&json!({"a": [1, "x"]})));
    assert_eq!(
        json.into_text(ResultLimit::None),
        ("{\"a\":[1,\"x\"]}".into(), false)
    );
    let e = err(ErrorKind::Timeout, "timed out after 5 ms");
    assert_eq!(
        e.into_text(ResultLimit::SESSIONS),
        ("timed out after 5 ms".into(), true)
    );
}

#[test]
fn the_character_limit_cuts_at_a_character_with_a_note_inside_the_limit() {
    let limit = ResultLimit::Chars(65_536);
    let at = "é".repeat(65_536);
    assert_eq!(limit.cut(at.clone()), at, "exactly at the limit: kept");
    let over = "é".repeat(65_537);
    let cut = limit.cut(over);
    assert_eq!(cut.chars().count(), 65_536, "the note is inside the limit");
    let (kept, note) = cut.split_once("\n[cut: ").expect("a note");
    let kept = kept.chars().count();
    assert_eq!(
        note,
        format!(
            "{} more characters; a result holds at most 65536]",
            65_537 - kept
        )
    );
}

#[test]
fn the_byte_limit_cuts_at_a_character_boundary_within_4096_bytes() {
    let limit = ResultLimit::Bytes(4096);
    let at = "a".repeat(4096);
    assert_eq!(limit.cut(at.clone()), at, "exactly at the limit: kept");
    for (text, unit) in [
        ("a".repeat(4097), "a"),
        ("é".repeat(2049), "é"),
        ("😀".repeat(1025), "😀"),
        (format!("a{}", "😀".repeat(1024)), "😀"),
    ] {
        let total = text.len();
        let cut = limit.cut(text);
        assert!(cut.len() <= 4096, "{unit}: {} bytes", cut.len());
        let (kept, note) = cut.split_once("\n[cut: ").expect("a note");
        assert!(kept.len() > 4000, "{unit}: kept only {} bytes", kept.len());
        assert_eq!(
            note,
            format!(
                "{} more bytes; a result holds at most 4096]",
                total - kept.len()
            ),
            "{unit}"
        );
    }
    assert_eq!(
        ResultLimit::Bytes(4096).cut("é".repeat(2048)),
        "é".repeat(2048)
    );
}

#[test]
fn error_kinds_have_the_documented_wire_names() {
    let names: Vec<&str> = [
        ErrorKind::UnknownTool,
        ErrorKind::InvalidArguments,
        ErrorKind::TooManyCalls,
        ErrorKind::Timeout,
        ErrorKind::HandlerError,
    ]
    .iter()
    .map(|k| k.as_str())
    .collect();
    assert_eq!(
        names,
        [
            "unknown_tool",
            "invalid_arguments",
            "too_many_calls",
            "timeout",
            "handler_error"
        ]
    );
}
