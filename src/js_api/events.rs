//! The app's `onStatus` and `onCall` events (`ClientStatus`, `CallEvent`, `WsCallEvent` in the
//! `.d.ts`): the engine's serde types, written as JS objects by serde-wasm-bindgen's
//! JSON-compatible serializer (plain objects, `null` for none, numbers as numbers), so that a JS
//! app reads what the native worker writes as JSON.

use crate::engine::{CallEvent, Status};
use client_tools_core::adapters::ws::WsCallEvent;
use serde::Serialize;
use wasm_bindgen::JsValue;

/// `v` as a JS value (`undefined` if serde refuses it, which the event types never make it do).
fn to_js<T: Serialize>(v: &T) -> JsValue {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::UNDEFINED)
}

/// A `ClientStatus`.
pub(crate) fn status(s: &Status) -> JsValue {
    to_js(s)
}

/// A Sessions call's `CallEvent`.
pub(crate) fn call(e: &CallEvent) -> JsValue {
    to_js(e)
}

/// A `WsCallEvent`.
pub(crate) fn ws_call(e: &WsCallEvent) -> JsValue {
    to_js(e)
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
