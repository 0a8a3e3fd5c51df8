//! Reading a stream event's JSON `data`: parsed once, its `"type"` names the event, then the
//! fields that type has are read by hand ([`Fields`]), with the messages serde's internally
//! tagged enum gave, and much less code in the shipped wasm.

use super::read::{invalid_type, parse, Fields, FromJson};
use super::{FailReason, StreamEvent, ToolDispatched};
use serde_json::Value;

/// Parses a JSON object whose `"type"` names the event. A type this version does not know is
/// [`StreamEvent::Unknown`]; a known type whose fields do not fit is serde's message (e.g.
/// "missing field `call_id`"). Text that is not JSON, or has no type, says where.
pub(super) fn parse_json(data: &str) -> Result<StreamEvent, String> {
    let value = parse(data)?;
    let kind = match value.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(other) => return Err(invalid_type(other, "a string")),
        None if value.is_object() => return Err(format!("missing field `type`{}", at_end(data))),
        None => return Err(invalid_type(&value, "struct Tag")),
    };
    let mut f = Fields::of(&value, "")?;
    let event = match kind {
        "client_tool_dispatched" => {
            StreamEvent::ClientToolDispatched(ToolDispatched::from_value(&value)?)
        }
        "client_tool_acked" => StreamEvent::ClientToolAcked {
            client_id: f.string("client_id"),
            call_id: f.string("call_id"),
            result_deadline: f.opt_string("result_deadline"),
        },
        "client_tool_succeeded" => StreamEvent::ClientToolSucceeded {
            client_id: f.string("client_id"),
            call_id: f.string("call_id"),
            is_error: f.flag("is_error"),
        },
        "client_tool_failed" => StreamEvent::ClientToolFailed {
            client_id: f.string("client_id"),
            call_id: f.string("call_id"),
            reason: fail_reason(&f.string("reason")),
        },
        "client_registered" => StreamEvent::ClientRegistered {
            client_id: f.string("client_id"),
            name: f.string_or_empty("name"),
        },
        "client_tools_replaced" => StreamEvent::ClientToolsReplaced {
            client_id: f.string("client_id"),
            name: f.string_or_empty("name"),
        },
        "client_left" => StreamEvent::ClientLeft {
            client_id: f.string("client_id"),
            name: f.string_or_empty("name"),
        },
        "client_expired" => StreamEvent::ClientExpired {
            client_id: f.string("client_id"),
            name: f.string_or_empty("name"),
        },
        "run_started" => StreamEvent::RunStarted {
            run_id: f.string("run_id"),
        },
        "run_completed" => StreamEvent::RunCompleted {
            run_id: f.string("run_id"),
        },
        "run_cancelled" => StreamEvent::RunCancelled {
            run_id: f.string("run_id"),
        },
        "stream_reset" => StreamEvent::StreamReset,
        _ => StreamEvent::Unknown,
    };
    f.done(event)
}

/// " at line L column C" of the object's closing brace, where serde reports a missing field
/// of the whole object.
fn at_end(data: &str) -> String {
    let end = data.trim_end().len().saturating_sub(1);
    let before = &data.as_bytes()[..end];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column = end
        - before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1)
        + 1;
    format!(" at line {line} column {column}")
}

/// The reason a wire spelling names; [`FailReason::Other`] for one this version does not know.
fn fail_reason(wire: &str) -> FailReason {
    match wire {
        "client_gone" => FailReason::ClientGone,
        "ack_timeout" => FailReason::AckTimeout,
        "result_timeout" => FailReason::ResultTimeout,
        "run_gone" => FailReason::RunGone,
        _ => FailReason::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::super::Lifetime;
    use super::*;
    use serde::Deserialize;

    fn error(data: &str) -> String {
        StreamEvent::parse("x", data).unwrap_err().message
    }

    #[test]
    fn field_errors_read_as_the_tagged_enum_gave_them() {
        let acked = r#"{"type":"client_tool_acked","client_id":"c"}"#;
        assert_eq!(error(acked), "missing field `call_id`");
        let tool = r#"{"type":"client_tool_dispatched","client_id":"c","call_id":"k","tool":5}"#;
        assert_eq!(error(tool), "invalid type: integer `5`, expected a string");
        // Not JSON at all, or no type: the position helps, and is kept.
        let cut = r#"{"type":"client_tool_acked","client_id":"c",}"#;
        assert_eq!(error(cut), "trailing comma at line 1 column 45");
        assert_eq!(
            error(r#"{"run_id":"r"}"#),
            "missing field `type` at line 1 column 14"
        );
        assert_eq!(
            error("{\n\"run_id\":\"r\"\n }  "),
            "missing field `type` at line 3 column 2"
        );
    }

    #[test]
    fn a_pending_call_reads_as_from_a_value() {
        use serde_json::json;
        let cases = [
            json!({"client_id": "c", "call_id": "k", "tool": "t", "arguments": {"a": 1.5}}),
            json!({"client_id": "c", "call_id": "k"}),
            json!({"client_id": "c", "call_id": "k", "tool": 5}),
            json!({"client_id": "c", "call_id": "k", "tool": "t", "ack_deadline": 2.5}),
            json!({"client_id": "c", "call_id": ["k"], "tool": "t"}),
            json!("not an object"),
            json!(null),
        ];
        for value in cases {
            let direct = ToolDispatched::deserialize(&value).map_err(|e| e.to_string());
            assert_eq!(ToolDispatched::from_value(&value), direct, "{value}");
        }
    }

    #[test]
    fn reasons_are_matched_by_their_wire_spelling() {
        for reason in [
            FailReason::ClientGone,
            FailReason::AckTimeout,
            FailReason::ResultTimeout,
            FailReason::RunGone,
        ] {
            assert_eq!(fail_reason(reason.as_str()), reason);
        }
        assert_eq!(fail_reason("server_exploded"), FailReason::Other);
        let numeric = r#"{"type":"client_tool_failed","client_id":"c","call_id":"k","reason":7}"#;
        assert_eq!(
            error(numeric),
            "invalid type: integer `7`, expected a string"
        );
    }

    #[test]
    fn lifetime_reads_every_field_order_and_refuses_what_does_not_fit() {
        let read = |text: &str| serde_json::from_str::<Lifetime>(text);
        let ttl = Lifetime::Ttl { seconds: 5 };
        assert_eq!(read(r#"{"data":{"seconds":5},"type":"ttl"}"#).unwrap(), ttl);
        assert_eq!(read(r#"["ttl",{"seconds":5}]"#).unwrap(), ttl);
        assert_eq!(
            read(r#"{"type":"never","data":null}"#).unwrap(),
            Lifetime::Never
        );
        let never_with_data = read(r#"{"type":"never","data":{"seconds":5}}"#).unwrap_err();
        assert_eq!(
            never_with_data.to_string(),
            "invalid type: map, expected unit variant Lifetime::Never"
        );
        assert_eq!(
            read(r#"{"type":"ttl"}"#).unwrap_err().to_string(),
            "missing field `data`"
        );
        assert_eq!(
            read(r#"{"type":"forever"}"#).unwrap_err().to_string(),
            "unknown variant `forever`, expected `never` or `ttl`"
        );
        assert!(read("5")
            .unwrap_err()
            .to_string()
            .starts_with("invalid type: integer `5`, expected adjacently tagged enum Lifetime"));
    }
}
