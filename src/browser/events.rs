//! The app's `onStatus` and `onCall` events as JS objects (`ClientStatus`, `CallEvent`,
//! `WsCallEvent`, `TurnCallEvent` in the `.d.ts`): `{ type, … }` with the fields in the order the types list
//! them, as `serde` writes the engine's events for the native worker, but built property by
//! property, so that no serializer per event type is in the .wasm.

use crate::engine::{CallEvent, Status};
use crate::js;
use client_tools_core::adapters::turns::TurnCallEvent;
use client_tools_core::adapters::ws::WsCallEvent;
use wasm_bindgen::JsValue;

/// An event under construction: `{ type: kind }`, then each field in turn.
struct Event(JsValue);

impl Event {
    fn new(kind: &str) -> Event {
        let o = js::object();
        js::set(&o, "type", &JsValue::from_str(kind));
        Event(o)
    }

    fn str(self, key: &str, v: &str) -> Event {
        self.val(key, JsValue::from_str(v))
    }

    /// A string, or `null` when there is none.
    fn opt(self, key: &str, v: Option<&str>) -> Event {
        self.val(key, v.map_or(JsValue::NULL, JsValue::from_str))
    }

    fn num(self, key: &str, v: u64) -> Event {
        self.val(key, JsValue::from_f64(v as f64))
    }

    fn bool(self, key: &str, v: bool) -> Event {
        self.val(key, JsValue::from_bool(v))
    }

    fn val(self, key: &str, v: JsValue) -> Event {
        js::set(&self.0, key, &v);
        self
    }

    /// The fields every call event starts with.
    fn call(kind: &str, call_id: &str, tool: &str) -> Event {
        Event::new(kind).str("callId", call_id).str("tool", tool)
    }
}

/// A `ClientStatus`.
pub(crate) fn status(s: &Status) -> JsValue {
    let registered = |kind, id: &str, name: &str, expires_at: &Option<String>| {
        (Event::new(kind).str("id", id).str("name", name)).opt("expiresAt", expires_at.as_deref())
    };
    let e = match s {
        Status::Registered {
            id,
            name,
            expires_at,
        } => registered("registered", id, name, expires_at),
        Status::Reregistered {
            id,
            name,
            expires_at,
        } => registered("reregistered", id, name, expires_at),
        Status::Lapsed => Event::new("lapsed"),
        Status::StreamOpen => Event::new("streamOpen"),
        Status::StreamReconnecting { attempt, delay } => Event::new("streamReconnecting")
            .num("attempt", u64::from(*attempt))
            .num("delayMs", delay.as_ms()),
        Status::Left { by } => Event::new("left").str("by", by.as_str()),
        Status::Error {
            message,
            fatal,
            kind,
        } => {
            let e = Event::new("error")
                .str("message", message)
                .bool("fatal", *fatal);
            match kind {
                None => e,
                Some(kind) => e.str("kind", kind.as_str()),
            }
        }
    };
    e.0
}

/// A Sessions call's `CallEvent`.
pub(crate) fn call(e: &CallEvent) -> JsValue {
    let e = match e {
        CallEvent::Dispatched {
            call_id,
            tool,
            run_id,
        } => Event::call("dispatched", call_id, tool).str("runId", run_id),
        CallEvent::Acked {
            call_id,
            tool,
            elapsed,
        } => Event::call("acked", call_id, tool).num("elapsedMs", elapsed.as_ms()),
        CallEvent::Answered {
            call_id,
            tool,
            is_error,
            elapsed,
        } => Event::call("answered", call_id, tool)
            .bool("isError", *is_error)
            .num("elapsedMs", elapsed.as_ms()),
        CallEvent::Failed {
            call_id,
            tool,
            reason,
            elapsed,
        } => Event::call("failed", call_id, tool)
            .str("reason", reason)
            .num("elapsedMs", elapsed.as_ms()),
    };
    e.0
}

/// A turn's call's `TurnCallEvent`.
pub(crate) fn turn_call(e: &TurnCallEvent) -> JsValue {
    let e = match e {
        TurnCallEvent::Dispatched { id, tool } => {
            Event::new("dispatched").str("id", id).str("tool", tool)
        }
        TurnCallEvent::Answered {
            id,
            tool,
            is_error,
            elapsed_ms,
        } => (Event::new("answered").str("id", id).str("tool", tool))
            .bool("isError", *is_error)
            .num("elapsedMs", *elapsed_ms),
    };
    e.0
}

/// A voice agent's call's `WsCallEvent`.
pub(crate) fn ws_call(e: &WsCallEvent) -> JsValue {
    let e = match e {
        WsCallEvent::Dispatched {
            call_id,
            tool,
            run_id,
        } => Event::call("dispatched", call_id, tool).str("runId", run_id),
        WsCallEvent::Answered {
            call_id,
            tool,
            is_error,
            elapsed_ms,
            sent,
        } => Event::call("answered", call_id, tool)
            .bool("isError", *is_error)
            .num("elapsedMs", *elapsed_ms)
            .bool("sent", *sent),
        WsCallEvent::Failed {
            call_id,
            tool,
            reason,
            elapsed_ms,
        } => Event::call("failed", call_id, tool)
            .str("reason", reason)
            .num("elapsedMs", *elapsed_ms),
        WsCallEvent::Malformed { call_id, reason } => Event::new("malformed")
            .opt("callId", call_id.as_deref())
            .str("reason", reason),
        WsCallEvent::SendFailed { call_id, reason } => Event::new("sendFailed")
            .opt("callId", call_id.as_deref())
            .str("reason", reason),
    };
    e.0
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use super::*;
    use crate::engine::{EngineErrorKind, LeftBy};
    use client_tools_core::time::Duration;
    use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

    wasm_bindgen_test_configure!(run_in_browser);

    fn json(v: &JsValue) -> String {
        js_sys::JSON::stringify(v).unwrap().as_string().unwrap()
    }

    /// Every event reads in JS as the engine's `serde` form of it (what the native worker
    /// writes): the same fields, in the same order.
    #[wasm_bindgen_test]
    fn events_are_what_serde_writes() {
        let (id, name, t) = ("cli_1".to_owned(), "web-2".to_owned(), "fill".to_owned());
        let ms = Duration::from_ms(1500);
        let statuses = [
            Status::Registered {
                id: id.clone(),
                name: name.clone(),
                expires_at: Some("2026-01-01T00:00:00Z".into()),
            },
            Status::Reregistered {
                id: id.clone(),
                name: name.clone(),
                expires_at: None,
            },
            Status::Lapsed,
            Status::StreamOpen,
            Status::StreamReconnecting {
                attempt: 3,
                delay: ms,
            },
            Status::Left { by: LeftBy::App },
            Status::Left { by: LeftBy::Hidden },
            Status::Left {
                by: LeftBy::PageHide,
            },
            Status::Error {
                message: "boom \"x\"".into(),
                fatal: false,
                kind: None,
            },
            Status::Error {
                message: "no".into(),
                fatal: true,
                kind: Some(EngineErrorKind::Unauthorized),
            },
            Status::Error {
                message: "no".into(),
                fatal: true,
                kind: Some(EngineErrorKind::Rejected),
            },
            Status::Error {
                message: "no".into(),
                fatal: true,
                kind: Some(EngineErrorKind::RegisterTimeout),
            },
            Status::Error {
                message: "no".into(),
                fatal: true,
                kind: Some(EngineErrorKind::NotRegistered),
            },
        ];
        for s in &statuses {
            assert_eq!(json(&status(s)), serde_json::to_string(s).unwrap());
        }
        let calls = [
            CallEvent::Dispatched {
                call_id: id.clone(),
                tool: t.clone(),
                run_id: name.clone(),
            },
            CallEvent::Acked {
                call_id: id.clone(),
                tool: t.clone(),
                elapsed: ms,
            },
            CallEvent::Answered {
                call_id: id.clone(),
                tool: t.clone(),
                is_error: true,
                elapsed: ms,
            },
            CallEvent::Failed {
                call_id: id.clone(),
                tool: t.clone(),
                reason: "client_gone".into(),
                elapsed: ms,
            },
        ];
        for e in &calls {
            assert_eq!(json(&call(e)), serde_json::to_string(e).unwrap());
        }
        let ws = [
            WsCallEvent::Dispatched {
                call_id: id.clone(),
                tool: t.clone(),
                run_id: name.clone(),
            },
            WsCallEvent::Answered {
                call_id: id.clone(),
                tool: t.clone(),
                is_error: false,
                elapsed_ms: 7,
                sent: true,
            },
            WsCallEvent::Failed {
                call_id: id.clone(),
                tool: t.clone(),
                reason: "closed".into(),
                elapsed_ms: 9,
            },
            WsCallEvent::Malformed {
                call_id: None,
                reason: "bad".into(),
            },
            WsCallEvent::Malformed {
                call_id: Some(id.clone()),
                reason: "bad".into(),
            },
            WsCallEvent::SendFailed {
                call_id: None,
                reason: "send failed: x".into(),
            },
        ];
        for e in &ws {
            assert_eq!(json(&ws_call(e)), serde_json::to_string(e).unwrap());
        }
    }
}
