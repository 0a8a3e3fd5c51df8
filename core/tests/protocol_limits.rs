//! Every limit of PROTOCOL.md at its edge, just inside and just outside, with the exact field
//! path and message of each error; and the serde shapes the wire depends on.

use client_tools_core::protocol::validate::{self, ErrorKind};
use client_tools_core::protocol::{
    ErrorBody, ErrorType, FailReason, Lifetime, RegisterRequest, StreamEvent, ToolDispatched,
    ToolSpec, ValidationError,
};
use serde_json::{json, Value};

/// `Ok` or the error as `(kind, "field: message")`.
type Outcome = Result<(), (ErrorKind, String)>;

fn outcome<T>(r: Result<T, ValidationError>) -> Outcome {
    r.map(|_| ()).map_err(|e| (e.kind, e.to_string()))
}

fn err(kind: ErrorKind, text: &str) -> Outcome {
    Err((kind, text.to_owned()))
}

/// Runs a table of `(label, outcome, expected)`; reports every mismatch, then fails once.
fn check_table(table: Vec<(String, Outcome, Outcome)>) {
    let failures: Vec<String> = table
        .iter()
        .filter(|(_, got, want)| got != want)
        .map(|(label, got, want)| format!("{label}: expected {want:?}, got {got:?}"))
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn tool(name: &str) -> ToolSpec {
    ToolSpec {
        name: name.to_owned(),
        description: String::new(),
        parameters: None,
    }
}

fn register(name: &str, lifetime: Lifetime, tools: Vec<ToolSpec>) -> Outcome {
    outcome(validate::register(&RegisterRequest {
        name: name.to_owned(),
        lifetime,
        tools,
    }))
}

fn ttl(seconds: u32) -> Lifetime {
    Lifetime::Ttl { seconds }
}

/// Three good tools, then `t` at index 3, so paths show the index.
fn fourth(t: ToolSpec) -> Vec<ToolSpec> {
    vec![tool("a"), tool("b"), tool("c"), t]
}

#[test]
fn client_name_limits() {
    use ErrorKind::*;
    let cases: Vec<(&str, String, Outcome)> = vec![
        (
            "0 chars",
            String::new(),
            err(Empty, "name: empty, needs 1 to 32 of a-z 0-9 -"),
        ),
        ("1 char", "w".into(), Ok(())),
        ("32 chars", "a".repeat(32), Ok(())),
        (
            "33 chars",
            "a".repeat(33),
            err(TooLong, "name: 33 characters, at most 32"),
        ),
        ("all allowed", "web-2-tab-0123456789".into(), Ok(())),
        (
            "upper case",
            "Web".into(),
            err(
                BadCharacter,
                "name: character 'W' at position 0 is not allowed, only a-z 0-9 -",
            ),
        ),
        (
            "underscore",
            "web_1".into(),
            err(
                BadCharacter,
                "name: character '_' at position 3 is not allowed, only a-z 0-9 -",
            ),
        ),
        (
            "space",
            "web app".into(),
            err(
                BadCharacter,
                "name: character ' ' at position 3 is not allowed, only a-z 0-9 -",
            ),
        ),
        (
            // 32 characters in 33 bytes: counted as characters, so the character is the fault.
            "multi-byte at the edge",
            format!("{}é", "a".repeat(31)),
            err(
                BadCharacter,
                "name: character 'é' at position 31 is not allowed, only a-z 0-9 -",
            ),
        ),
        (
            "33 multi-byte",
            "é".repeat(33),
            err(TooLong, "name: 33 characters, at most 32"),
        ),
    ];
    check_table(
        cases
            .into_iter()
            .map(|(label, name, want)| {
                (
                    format!("client name {label}"),
                    register(&name, ttl(60), vec![]),
                    want,
                )
            })
            .collect(),
    );
}

#[test]
fn tool_name_limits() {
    use ErrorKind::*;
    let only = "only A-Z a-z 0-9 _ -";
    let cases: Vec<(&str, String, Outcome)> = vec![
        (
            "0 chars",
            String::new(),
            err(
                Empty,
                "tools[3].name: empty, needs 1 to 64 of A-Z a-z 0-9 _ -",
            ),
        ),
        ("1 char", "x".into(), Ok(())),
        ("64 chars", "Ab_-9".repeat(13)[..64].to_owned(), Ok(())),
        (
            "65 chars",
            "a".repeat(65),
            err(TooLong, "tools[3].name: 65 characters, at most 64"),
        ),
        (
            "dot",
            "get.row".into(),
            err(
                BadCharacter,
                &format!("tools[3].name: character '.' at position 3 is not allowed, {only}"),
            ),
        ),
        (
            "space",
            "get row".into(),
            err(
                BadCharacter,
                &format!("tools[3].name: character ' ' at position 3 is not allowed, {only}"),
            ),
        ),
        (
            "non-ASCII letter",
            "行を選ぶ".into(),
            err(
                BadCharacter,
                &format!("tools[3].name: character '行' at position 0 is not allowed, {only}"),
            ),
        ),
        (
            "65 multi-byte",
            "ü".repeat(65),
            err(TooLong, "tools[3].name: 65 characters, at most 64"),
        ),
    ];
    let mut table: Vec<(String, Outcome, Outcome)> = cases
        .into_iter()
        .map(|(label, name, want)| {
            let got = register("web", ttl(60), fourth(tool(&name)));
            (format!("tool name {label}"), got, want)
        })
        .collect();
    // The same rule through the function the SDK calls for one name.
    table.push((
        "tool_name() alone".into(),
        outcome(validate::tool_name("tools[0].name", &"a".repeat(65))),
        err(TooLong, "tools[0].name: 65 characters, at most 64"),
    ));
    check_table(table);
}

#[test]
fn tool_count_and_duplicate_names() {
    use ErrorKind::*;
    let n_tools = |n: usize| {
        (0..n)
            .map(|i| tool(&format!("tool_{i}")))
            .collect::<Vec<_>>()
    };
    check_table(vec![
        ("0 tools".into(), register("web", ttl(60), vec![]), Ok(())),
        (
            "64 tools".into(),
            register("web", ttl(60), n_tools(64)),
            Ok(()),
        ),
        (
            "65 tools".into(),
            register("web", ttl(60), n_tools(65)),
            err(TooMany, "tools: 65 tools, at most 64"),
        ),
        (
            "duplicate".into(),
            register("web", ttl(60), vec![tool("a"), tool("b"), tool("a")]),
            err(
                Duplicate,
                "tools[2].name: \"a\" is already the name of tools[0]",
            ),
        ),
        (
            "names differ by case only".into(),
            register("web", ttl(60), vec![tool("row"), tool("Row")]),
            Ok(()),
        ),
        (
            "tools() on a replace".into(),
            outcome(validate::tools(&[
                tool("x"),
                tool("y"),
                tool("z"),
                tool("y"),
            ])),
            err(
                Duplicate,
                "tools[3].name: \"y\" is already the name of tools[1]",
            ),
        ),
    ]);
}

#[test]
fn description_limits_count_characters() {
    use ErrorKind::*;
    let described = |d: String| {
        let mut t = tool("t");
        t.description = d;
        register("web", ttl(60), fourth(t))
    };
    check_table(vec![
        ("empty".into(), described(String::new()), Ok(())),
        ("4096 ASCII".into(), described("d".repeat(4096)), Ok(())),
        (
            "4097 ASCII".into(),
            described("d".repeat(4097)),
            err(
                TooLong,
                "tools[3].description: 4097 characters, at most 4096",
            ),
        ),
        // 4096 characters in 12,288 bytes: within the limit.
        (
            "4096 three-byte".into(),
            described("€".repeat(4096)),
            Ok(()),
        ),
        (
            "4096 four-byte".into(),
            described("😀".repeat(4096)),
            Ok(()),
        ),
        (
            "4097 mixed".into(),
            described(format!("{}é", "😀".repeat(4096))),
            err(
                TooLong,
                "tools[3].description: 4097 characters, at most 4096",
            ),
        ),
    ]);
}

#[test]
fn parameters_must_be_an_object() {
    use ErrorKind::*;
    let with = |p: Option<Value>| {
        let mut t = tool("t");
        t.parameters = p;
        register("web", ttl(60), fourth(t))
    };
    let wrong = |ty: &str| {
        err(
            WrongType,
            &format!("tools[3].parameters: must be a JSON Schema object, got {ty}"),
        )
    };
    check_table(vec![
        ("absent".into(), with(None), Ok(())),
        ("empty object".into(), with(Some(json!({}))), Ok(())),
        (
            "schema".into(),
            with(Some(
                json!({"type": "object", "properties": {"row_id": {"type": "string"}}}),
            )),
            Ok(()),
        ),
        (
            "array".into(),
            with(Some(json!([{"type": "object"}]))),
            wrong("array"),
        ),
        (
            "string".into(),
            with(Some(json!("{\"type\":\"object\"}"))),
            wrong("string"),
        ),
        ("integer".into(), with(Some(json!(5))), wrong("integer")),
        ("number".into(), with(Some(json!(1.5))), wrong("number")),
        ("boolean".into(), with(Some(json!(true))), wrong("boolean")),
    ]);
}

#[test]
fn ttl_limits() {
    use ErrorKind::*;
    let range = |s: u32| {
        err(
            OutOfRange,
            &format!("lifetime.data.seconds: {s} seconds, must be 5 to 3600"),
        )
    };
    check_table(vec![
        ("ttl 0".into(), register("web", ttl(0), vec![]), range(0)),
        ("ttl 4".into(), register("web", ttl(4), vec![]), range(4)),
        ("ttl 5".into(), register("web", ttl(5), vec![]), Ok(())),
        (
            "ttl 3600".into(),
            register("web", ttl(3600), vec![]),
            Ok(()),
        ),
        (
            "ttl 3601".into(),
            register("web", ttl(3601), vec![]),
            range(3601),
        ),
        (
            "ttl max".into(),
            register("web", ttl(u32::MAX), vec![]),
            range(u32::MAX),
        ),
        (
            "never".into(),
            register("web", Lifetime::Never, vec![]),
            Ok(()),
        ),
        // The name is checked first, so a request with two faults names the name.
        (
            "two faults".into(),
            register("", ttl(1), vec![]),
            err(Empty, "name: empty, needs 1 to 32 of a-z 0-9 -"),
        ),
    ]);
}

#[test]
fn result_text_limits_count_characters() {
    use ErrorKind::*;
    let text = |t: String| outcome(validate::result_text(&t));
    let too_long = err(TooLong, "text: 65537 characters, at most 65536");
    check_table(vec![
        ("empty".into(), text(String::new()), Ok(())),
        ("65536 ASCII".into(), text("r".repeat(65_536)), Ok(())),
        (
            "65537 ASCII".into(),
            text("r".repeat(65_537)),
            too_long.clone(),
        ),
        // 65,536 characters in 196,608 bytes: within the limit.
        ("65536 three-byte".into(), text("€".repeat(65_536)), Ok(())),
        (
            "65537 three-byte".into(),
            text("€".repeat(65_537)),
            too_long.clone(),
        ),
        (
            "65535 ASCII + 1 four-byte".into(),
            text(format!("{}😀", "r".repeat(65_535))),
            Ok(()),
        ),
        (
            "65536 ASCII + 1 two-byte".into(),
            text(format!("{}é", "r".repeat(65_536))),
            too_long,
        ),
    ]);
}

#[test]
fn arguments_shapes() {
    use ErrorKind::*;
    let args = |v: Value| outcome(validate::arguments(&v));
    check_table(vec![
        ("object".into(), args(json!({"row_id": "42"})), Ok(())),
        ("string holding an object".into(), args(json!("{\"row_id\":\"42\"}")), Ok(())),
        ("null".into(), args(Value::Null), Ok(())),
        ("array".into(), args(json!(["42"])), err(WrongType, "arguments: JSON array, needs a JSON object")),
        ("integer".into(), args(json!(42)), err(WrongType, "arguments: JSON integer, needs a JSON object")),
        (
            "string holding an array".into(),
            args(json!("[1,2]")),
            err(WrongType, "arguments: a string holding JSON array, needs a JSON object"),
        ),
        (
            "string not JSON".into(),
            args(json!("row 42")),
            err(
                WrongType,
                "arguments: a string that is not JSON (expected value at line 1 column 1), needs a JSON object",
            ),
        ),
    ]);
    // What the handler gets: the object itself, however it came.
    let direct = validate::arguments(&json!({"row_id": "42"})).unwrap();
    let wrapped = validate::arguments(&json!("{\"row_id\":\"42\"}")).unwrap();
    assert_eq!(direct, wrapped);
    assert_eq!(direct["row_id"], "42");
    assert!(validate::arguments(&Value::Null).unwrap().is_empty());
}

#[test]
fn arguments_through_a_dispatched_event() {
    let event = |arguments: Value| {
        let data = json!({
            "type": "client_tool_dispatched", "session_id": "ses_1", "run_id": "run_1",
            "client_id": "cli_1", "call_id": "call_1", "tool": "highlight_row",
            "arguments": arguments, "ack_deadline": "2026-11-29T12:01:00Z"
        });
        match StreamEvent::parse("client_tool_dispatched", &data.to_string()) {
            Ok(StreamEvent::ClientToolDispatched(d)) => d,
            other => panic!("not a dispatched call: {other:?}"),
        }
    };
    assert_eq!(
        event(json!({"row_id": "7"})).arguments().unwrap()["row_id"],
        "7"
    );
    assert_eq!(
        event(json!("{\"row_id\":\"7\"}")).arguments().unwrap()["row_id"],
        "7"
    );
    let e = event(json!([1])).arguments().unwrap_err();
    assert_eq!(e.to_string(), "arguments: JSON array, needs a JSON object");
    let e = event(json!("not json")).arguments().unwrap_err();
    assert_eq!(e.field, "arguments");
    assert_eq!(e.kind, ErrorKind::WrongType);
    // Absent arguments are an empty object, not an error.
    let data = r#"{"type":"client_tool_dispatched","client_id":"c","call_id":"k","tool":"t"}"#;
    let Ok(StreamEvent::ClientToolDispatched(d)) = StreamEvent::parse("x", data) else {
        panic!("absent arguments must parse");
    };
    assert!(d.arguments().unwrap().is_empty());
}

#[test]
fn unknown_fields_are_ignored() {
    let req: RegisterRequest = serde_json::from_value(json!({
        "name": "web", "future_flag": true,
        "lifetime": {"type": "ttl", "data": {"seconds": 30, "grace": 5}},
        "tools": [{"name": "t", "description": "d", "parameters": {}, "strict": true}]
    }))
    .unwrap();
    assert_eq!(req.lifetime, Lifetime::Ttl { seconds: 30 });
    assert_eq!(req.tools[0].name, "t");
    let data = r#"{"type":"client_tool_failed","client_id":"c","call_id":"k","reason":"ack_timeout","at":"2026-11-29T12:00:00Z"}"#;
    assert_eq!(
        StreamEvent::parse("client_tool_failed", data).unwrap(),
        StreamEvent::ClientToolFailed {
            client_id: "c".into(),
            call_id: "k".into(),
            reason: FailReason::AckTimeout,
        }
    );
    let d: ToolDispatched = serde_json::from_value(json!({
        "client_id": "c", "call_id": "k", "tool": "t", "arguments": {}, "priority": 3
    }))
    .unwrap();
    assert_eq!(d.tool, "t");
}

#[test]
fn unknown_event_types_and_reasons_parse_as_unknown() {
    let parse = |t: &str, data: &str| StreamEvent::parse(t, data).unwrap();
    assert_eq!(
        parse("agent_thinking", r#"{"type":"agent_thinking","text":"…"}"#),
        StreamEvent::Unknown
    );
    assert_eq!(
        parse("message", r#"{"type":"run_paused"}"#),
        StreamEvent::Unknown
    );
    // No JSON data: named by the SSE event type.
    assert_eq!(parse("heartbeat", ""), StreamEvent::Unknown);
    assert_eq!(parse("stream_reset", ""), StreamEvent::StreamReset);
    assert_eq!(
        parse("stream_reset", r#"{"type":"stream_reset"}"#),
        StreamEvent::StreamReset
    );
    assert_eq!(
        parse("run_started", r#"{"type":"run_started","run_id":"run_1"}"#),
        StreamEvent::RunStarted {
            run_id: "run_1".into()
        }
    );
    let failed = parse(
        "client_tool_failed",
        r#"{"type":"client_tool_failed","client_id":"c","call_id":"k","reason":"server_exploded"}"#,
    );
    assert!(matches!(
        failed,
        StreamEvent::ClientToolFailed {
            reason: FailReason::Other,
            ..
        }
    ));
    // A known type with a field missing is an error naming the type, not a silent Unknown.
    let e = StreamEvent::parse(
        "client_tool_acked",
        r#"{"type":"client_tool_acked","client_id":"c"}"#,
    )
    .unwrap_err();
    assert_eq!(e.event_type, "client_tool_acked");
    assert!(e.message.contains("call_id"), "{e}");
}

#[test]
fn lifetime_json_shapes_round_trip() {
    let cases = [
        (Lifetime::Never, r#"{"type":"never"}"#),
        (
            Lifetime::Ttl { seconds: 60 },
            r#"{"type":"ttl","data":{"seconds":60}}"#,
        ),
    ];
    for (lifetime, text) in cases {
        assert_eq!(serde_json::to_string(&lifetime).unwrap(), text);
        assert_eq!(serde_json::from_str::<Lifetime>(text).unwrap(), lifetime);
    }
    // An absent lifetime defaults to a 60 s TTL.
    let req: RegisterRequest = serde_json::from_str(r#"{"name":"web"}"#).unwrap();
    assert_eq!(req.lifetime, Lifetime::Ttl { seconds: 60 });
    assert!(req.tools.is_empty());
    // A lifetime type this version does not know is an error, not a guess.
    assert!(serde_json::from_str::<Lifetime>(r#"{"type":"forever"}"#).is_err());
    assert!(serde_json::from_str::<Lifetime>(r#"{"type":"ttl"}"#).is_err());
}

#[test]
fn error_types_read_by_their_wire_spelling_and_an_unknown_one_is_kept() {
    let known = [
        ("invalid_request", ErrorType::InvalidRequest),
        ("unauthorized", ErrorType::Unauthorized),
        ("forbidden", ErrorType::Forbidden),
        ("not_found", ErrorType::NotFound),
        ("client_limit_reached", ErrorType::ClientLimitReached),
        ("call_not_acked", ErrorType::CallNotAcked),
        ("call_settled", ErrorType::CallSettled),
        ("payload_too_large", ErrorType::PayloadTooLarge),
        ("rate_limited", ErrorType::RateLimited),
        ("server_error", ErrorType::ServerError),
    ];
    for (wire, kind) in known {
        assert_eq!(ErrorType::parse(wire), kind);
        assert_eq!(kind.as_str(), wire);
        let body = json!({"error": {"type": wire, "message": "m", "param": null}});
        let read: ErrorBody = serde_json::from_value(body.clone()).unwrap();
        assert_eq!(read.error.kind, kind);
        assert_eq!(serde_json::to_value(&read).unwrap(), body);
    }
    let other = ErrorType::parse("quota_exceeded");
    assert_eq!(other, ErrorType::Other("quota_exceeded".into()));
    assert_eq!(other.to_string(), "quota_exceeded");
    // Spelling is exact: a differently cased type is not a known one.
    assert_eq!(
        ErrorType::parse("Call_Settled"),
        ErrorType::Other("Call_Settled".into())
    );
    let e = serde_json::from_str::<ErrorBody>(r#"{"error": {"type": 7, "message": "m"}}"#);
    assert!(e.is_err(), "a non-string type is not an error body");
}
