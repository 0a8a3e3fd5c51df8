//! Reading a stream event's JSON `data` in two steps: its `"type"`, then the fields that type
//! has. Each step is a plain struct, so serde reads straight from the text; the result is the
//! same as an internally tagged enum gives, with much less code in the shipped wasm.

use super::{FailReason, StreamEvent, ToolDispatched};
use serde::de::DeserializeOwned;
use serde::Deserialize;

/// The first step: only the `"type"` (every other field is skipped).
#[derive(Deserialize)]
struct Tag {
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Deserialize)]
struct Acked {
    client_id: String,
    call_id: String,
    #[serde(default)]
    result_deadline: Option<String>,
}

#[derive(Deserialize)]
struct Succeeded {
    client_id: String,
    call_id: String,
    #[serde(default)]
    is_error: bool,
}

#[derive(Deserialize)]
struct Failed {
    client_id: String,
    call_id: String,
    /// Read as text and matched here: FailReason's derived Deserialize is more wasm than this.
    reason: String,
}

/// `client_registered`, `client_tools_replaced`, `client_left`, `client_expired`.
#[derive(Deserialize)]
struct ClientRef {
    client_id: String,
    #[serde(default)]
    name: String,
}

/// `run_started`, `run_completed`, `run_cancelled`.
#[derive(Deserialize)]
struct RunRef {
    run_id: String,
}

/// Parses a JSON object whose `"type"` names the event. A type this version does not know is
/// [`StreamEvent::Unknown`]; a known type whose fields do not fit is serde's message (e.g.
/// "missing field `call_id`").
pub(super) fn parse_json(data: &str) -> Result<StreamEvent, String> {
    let Tag { kind } = serde_json::from_str(data).map_err(|e| e.to_string())?;
    let client = |c: ClientRef| (c.client_id, c.name);
    Ok(match kind.as_str() {
        "client_tool_dispatched" => StreamEvent::ClientToolDispatched(fields(data)?),
        "client_tool_acked" => {
            let a: Acked = fields(data)?;
            StreamEvent::ClientToolAcked {
                client_id: a.client_id,
                call_id: a.call_id,
                result_deadline: a.result_deadline,
            }
        }
        "client_tool_succeeded" => {
            let s: Succeeded = fields(data)?;
            StreamEvent::ClientToolSucceeded {
                client_id: s.client_id,
                call_id: s.call_id,
                is_error: s.is_error,
            }
        }
        "client_tool_failed" => {
            let f: Failed = fields(data)?;
            StreamEvent::ClientToolFailed {
                client_id: f.client_id,
                call_id: f.call_id,
                reason: fail_reason(&f.reason),
            }
        }
        "client_registered" => {
            let (client_id, name) = client(fields(data)?);
            StreamEvent::ClientRegistered { client_id, name }
        }
        "client_tools_replaced" => {
            let (client_id, name) = client(fields(data)?);
            StreamEvent::ClientToolsReplaced { client_id, name }
        }
        "client_left" => {
            let (client_id, name) = client(fields(data)?);
            StreamEvent::ClientLeft { client_id, name }
        }
        "client_expired" => {
            let (client_id, name) = client(fields(data)?);
            StreamEvent::ClientExpired { client_id, name }
        }
        "run_started" => StreamEvent::RunStarted {
            run_id: fields::<RunRef>(data)?.run_id,
        },
        "run_completed" => StreamEvent::RunCompleted {
            run_id: fields::<RunRef>(data)?.run_id,
        },
        "run_cancelled" => StreamEvent::RunCancelled {
            run_id: fields::<RunRef>(data)?.run_id,
        },
        "stream_reset" => StreamEvent::StreamReset,
        _ => StreamEvent::Unknown,
    })
}

impl ToolDispatched {
    /// A dispatched call read from a JSON value (an entry of the pending calls). An error names
    /// the field, as serde's reader of a `&Value` would, e.g. "missing field `tool`".
    pub(crate) fn from_json_value(value: &serde_json::Value) -> Result<ToolDispatched, String> {
        // Through the text: a deserializer of `&Value` would be one more in the wasm.
        fields(&value.to_string())
    }
}

/// The second step. The text is known to be JSON by now, so an error is about a field.
fn fields<T: DeserializeOwned>(data: &str) -> Result<T, String> {
    serde_json::from_str(data).map_err(without_position)
}

/// A field's error without its position, as the enum's buffered read gave it. Not generic, so
/// the wasm holds it once for every event type.
fn without_position(e: serde_json::Error) -> String {
    let text = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    match text.strip_suffix(&position) {
        Some(bare) if e.line() != 0 => bare.to_owned(),
        _ => text,
    }
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
            assert_eq!(ToolDispatched::from_json_value(&value), direct, "{value}");
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
