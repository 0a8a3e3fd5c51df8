//! Reading a stream event's JSON `data` in two steps: its `"type"`, then the fields that type
//! has. Each step is a plain struct, so serde reads straight from the text; the result is the
//! same as an internally tagged enum gives, with much less code in the shipped wasm.

use super::{FailReason, StreamEvent, ToolDispatched};
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
    reason: FailReason,
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
/// [`StreamEvent::Unknown`]; a known type whose fields do not fit is serde's error (e.g.
/// "missing field `call_id`").
pub(super) fn parse_json(data: &str) -> Result<StreamEvent, serde_json::Error> {
    use serde_json::from_str;
    let Tag { kind } = from_str(data)?;
    let client = |c: ClientRef| (c.client_id, c.name);
    Ok(match kind.as_str() {
        "client_tool_dispatched" => {
            StreamEvent::ClientToolDispatched(from_str::<ToolDispatched>(data)?)
        }
        "client_tool_acked" => {
            let a: Acked = from_str(data)?;
            StreamEvent::ClientToolAcked {
                client_id: a.client_id,
                call_id: a.call_id,
                result_deadline: a.result_deadline,
            }
        }
        "client_tool_succeeded" => {
            let s: Succeeded = from_str(data)?;
            StreamEvent::ClientToolSucceeded {
                client_id: s.client_id,
                call_id: s.call_id,
                is_error: s.is_error,
            }
        }
        "client_tool_failed" => {
            let f: Failed = from_str(data)?;
            StreamEvent::ClientToolFailed {
                client_id: f.client_id,
                call_id: f.call_id,
                reason: f.reason,
            }
        }
        "client_registered" => {
            let (client_id, name) = client(from_str(data)?);
            StreamEvent::ClientRegistered { client_id, name }
        }
        "client_tools_replaced" => {
            let (client_id, name) = client(from_str(data)?);
            StreamEvent::ClientToolsReplaced { client_id, name }
        }
        "client_left" => {
            let (client_id, name) = client(from_str(data)?);
            StreamEvent::ClientLeft { client_id, name }
        }
        "client_expired" => {
            let (client_id, name) = client(from_str(data)?);
            StreamEvent::ClientExpired { client_id, name }
        }
        "run_started" => StreamEvent::RunStarted {
            run_id: from_str::<RunRef>(data)?.run_id,
        },
        "run_completed" => StreamEvent::RunCompleted {
            run_id: from_str::<RunRef>(data)?.run_id,
        },
        "run_cancelled" => StreamEvent::RunCancelled {
            run_id: from_str::<RunRef>(data)?.run_id,
        },
        "stream_reset" => StreamEvent::StreamReset,
        _ => StreamEvent::Unknown,
    })
}
