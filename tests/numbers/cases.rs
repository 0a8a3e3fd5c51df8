//! The number cases of issue 38, shared by tests/numbers.rs (natively and in Node) and
//! tests/web_numbers.rs (in a tab): a call's arguments holding `1.0`, `9007199254740993`, `-0`,
//! a float that only a correctly rounded reading gets right, and `1e400`, through the core's
//! call path as every shell runs it: the arguments as the server sends them (an object inside
//! the dispatched event, or a JSON string holding one), the schema check, a Rust handler's typed
//! arguments, and its result written back as JSON text. The same outcome on every target.

use client_tools_core::api::typed_arguments;
use client_tools_core::calls::{
    Admission, Answer, Call, CallRuntime, ResultLimit, Returned, ToolDef,
};
use client_tools_core::protocol::{StreamEvent, ToolSpec};
use client_tools_core::time::Instant;
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// The arguments as the agent wrote them.
pub const ARGUMENTS: &str =
    r#"{"one":1.0,"big":9007199254740993,"zero":-0,"near":212.91890726713459}"#;

/// Arguments no `f64` holds: refused on every target.
pub const OUT_OF_RANGE: &str = r#"{"huge":1e400}"#;

/// The schema the tool declares: each number checked where a reading that differs from
/// serde_json's would change the outcome (`9007199254740992` is not the `const`; the float
/// `near` misread by one step up is not below its `exclusiveMaximum`).
pub fn parameters() -> Value {
    json!({
        "type": "object",
        "required": ["one", "big", "zero", "near"],
        "properties": {
            "one": {"type": "integer", "const": 1},
            "big": {"type": "integer", "const": 9007199254740993u64},
            "zero": {"type": "number", "minimum": 0, "maximum": 0},
            "near": {"type": "number", "exclusiveMaximum": 212.9189072671346}
        }
    })
}

/// A Rust handler's typed arguments.
#[derive(Deserialize, Debug)]
pub struct Numbers {
    pub one: f64,
    pub big: u64,
    pub zero: f64,
    pub near: f64,
}

/// What the handler saw, as bits and kinds, so that `-0.0 == 0.0` and `1 == 1.0` cannot hide
/// a difference.
pub fn seen(arguments: &Map<String, Value>) -> Value {
    let typed: Numbers = typed_arguments(arguments.clone()).expect("typed arguments");
    json!({
        "one": {"is_f64": arguments["one"].is_f64(), "bits": typed.one.to_bits()},
        "big": {"is_u64": arguments["big"].is_u64(), "value": typed.big},
        "zero": {"is_f64": arguments["zero"].is_f64(), "bits": typed.zero.to_bits()},
        "near": {"bits": typed.near.to_bits()},
    })
}

/// What every target must see: exactly the numbers written.
pub fn expected_seen() -> Value {
    json!({
        "one": {"is_f64": true, "bits": 1.0f64.to_bits()},
        "big": {"is_u64": true, "value": 9007199254740993u64},
        "zero": {"is_f64": true, "bits": (-0.0f64).to_bits()},
        "near": {"bits": 212.91890726713459f64.to_bits()},
    })
}

/// A handler's result holding the numbers it got and floats written in exponent form.
pub fn result_of(arguments: &Map<String, Value>) -> Value {
    json!({"got": arguments, "written": [1e20, 1.5e-6, 5e-324, f64::MAX, 0.1]})
}

/// The result's text, the same on every target.
pub const RESULT_TEXT: &str = r#"{"got":{"big":9007199254740993,"near":212.91890726713459,"one":1.0,"zero":-0.0},"written":[1e+20,1.5e-6,5e-324,1.7976931348623157e+308,0.1]}"#;

/// The answer to `OUT_OF_RANGE` sent as a JSON string.
pub const OUT_OF_RANGE_ANSWER: &str = "Invalid arguments for \"numbers\": arguments: a string that is not JSON (number out of range at line 1 column 13), needs a JSON object";

fn tool() -> Vec<ToolDef> {
    vec![ToolDef::new(ToolSpec {
        name: "numbers".into(),
        description: "Echoes numbers.".into(),
        parameters: Some(parameters()),
    })]
}

/// Admits a call with `arguments` (as the event holds them) through the call runtime.
fn admit(id: &str, arguments: Value) -> Admission {
    let call = Call {
        call_id: id,
        run_id: "run_1",
        tool: "numbers",
    };
    CallRuntime::new().admit(call, arguments, &tool(), Instant::from_ms(0))
}

/// The arguments of a `client_tool_dispatched` event whose `arguments` member is `arguments`
/// (JSON text: an object, or a string holding one), as the stream parser reads the event.
fn dispatched(arguments: &str) -> Value {
    let data = format!(
        r#"{{"type":"client_tool_dispatched","session_id":"s","run_id":"run_1","client_id":"cli_1","call_id":"c1","tool":"numbers","arguments":{arguments}}}"#
    );
    match StreamEvent::parse("client_tool_dispatched", &data) {
        Ok(StreamEvent::ClientToolDispatched(d)) => d.arguments,
        _ => panic!("not a dispatched call: {data}"),
    }
}

/// Runs every case and checks it; panics naming the case that differs.
pub fn check_every_case() {
    let as_string = Value::String(ARGUMENTS.to_owned()).to_string();
    for (how, arguments) in [
        ("an object", ARGUMENTS.to_owned()),
        ("a JSON string", as_string),
    ] {
        let arguments = match admit("c1", dispatched(&arguments)) {
            Admission::Run { arguments, .. } => arguments,
            other => panic!("arguments as {how}: {other:?}"),
        };
        assert_eq!(seen(&arguments), expected_seen(), "arguments as {how}");
        let answer = Answer::from_returned(Returned::Value(result_of(&arguments)));
        let (text, is_error) = answer.into_text(ResultLimit::SESSIONS);
        assert!(!is_error);
        assert_eq!(
            text, RESULT_TEXT,
            "the result written back (arguments as {how})"
        );
        let back = client_tools_core::json::parse(&text).expect("the result reads back");
        assert_eq!(
            back,
            result_of(&arguments),
            "the result reads back as written"
        );
    }
    // 1e400 in the event itself: the event is not JSON an f64 holds, refused as a whole.
    let data = format!(
        r#"{{"type":"client_tool_dispatched","client_id":"cli_1","call_id":"c2","tool":"numbers","arguments":{OUT_OF_RANGE}}}"#
    );
    let err = match StreamEvent::parse("client_tool_dispatched", &data) {
        Err(e) => e.message,
        Ok(_) => panic!("1e400 read as a number"),
    };
    assert!(err.starts_with("number out of range"), "{err}");
    // 1e400 in arguments sent as a string: the call is answered with the error.
    let string = Value::String(OUT_OF_RANGE.to_owned()).to_string();
    let Admission::Answer(answer) = admit("c3", dispatched(&string)) else {
        panic!("1e400 admitted");
    };
    assert_eq!(
        answer.into_text(ResultLimit::SESSIONS),
        (OUT_OF_RANGE_ANSWER.to_owned(), true)
    );
}
