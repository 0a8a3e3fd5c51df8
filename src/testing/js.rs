//! `TestAgent` as a JS class: what the npm package's `client-tools/testing` entry exports
//! (cargo feature `testing-js`, its own wasm: scripts/build-pkg). The same agent as the Rust
//! one ([`super::TestAgent`]), with the same names in JS's case, and its `options()` a plain
//! object for the real package's `Client.register` (`client-tools` or `client-tools/lite`):
//! the client's own I/O path runs unchanged, with the agent's function as its `fetch`.
//! Its TypeScript is `pkg-template/testing/index.d.ts`.

use super::{
    CallOutcome, TestAgent, Violation, ACK_BEFORE_RESULT, ANSWERED_ONCE, BASE_URL, CALL_REFUSED,
    RESULT_WITHIN_DEADLINE, SESSION_ID, TOKEN, TOOLS_BEFORE_NAVIGATING_RESULT,
    TOOL_NAMES_WITHIN_LIMITS,
};
use crate::browser::read::{self, Count};
use client_tools_sessions::Limits;
use js_sys::{Array, Object, Promise, Reflect, JSON};
use serde::Deserialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

/// What `new TestAgent(limits)` takes, each a whole number of milliseconds, at least 1; read as
/// the JS API reads its options (an unknown key named with the nearest known one).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LimitOptions {
    ack_timeout_ms: Option<Count>,
    result_timeout_ms: Option<Count>,
}

/// The scripted agent of `client-tools/testing`.
#[wasm_bindgen(js_name = TestAgent)]
pub struct JsTestAgent {
    agent: TestAgent,
}

fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(&format!("client-tools/testing: {message}")).into()
}

/// A JS `Error` named `ProtocolViolation` whose `rule` is the rule's name.
fn violation_error(v: &Violation) -> JsValue {
    let e = js_sys::Error::new(&v.to_string());
    e.set_name("ProtocolViolation");
    let _ = Reflect::set(&e, &"rule".into(), &v.rule.into());
    e.into()
}

fn set(target: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &key.into(), value);
}

fn strings(items: &[String]) -> Array {
    items.iter().map(|s| JsValue::from_str(s)).collect()
}

fn outcome(o: &CallOutcome) -> JsValue {
    let out = Object::new();
    set(&out, "callId", &o.call_id.as_str().into());
    set(&out, "text", &o.text.as_str().into());
    set(&out, "isError", &o.is_error.into());
    let failed = o.failed.map_or(JsValue::NULL, JsValue::from_str);
    set(&out, "failed", &failed);
    set(&out, "tools", &strings(&o.tools));
    out.into()
}

/// A tool's arguments as JSON, as the model sends them: what `JSON.stringify` makes of them.
fn arguments(value: &JsValue, what: &str) -> Result<Value, JsValue> {
    if value.is_undefined() {
        return Ok(Value::Object(Default::default()));
    }
    let text = JSON::stringify(value)
        .map_err(|_| type_error(&format!("{what}: cannot be written as JSON")))?;
    let text = text.as_string().unwrap_or_default();
    serde_json::from_str(&text)
        .map_err(|_| type_error(&format!("{what}: cannot be written as JSON")))
}

fn tool_name(value: &JsValue, what: &str) -> Result<String, JsValue> {
    value
        .as_string()
        .ok_or_else(|| type_error(&format!("{what}: must be a tool's name (a string)")))
}

fn limits(value: &JsValue) -> Result<Limits, JsValue> {
    let mut limits = Limits::default();
    if value.is_undefined() || value.is_null() {
        return Ok(limits);
    }
    let o: LimitOptions =
        read::object(value, "limits.").map_err(|m| type_error(&format!("new TestAgent: {m}")))?;
    if let Some(Count(ms)) = o.ack_timeout_ms {
        limits.ack_timeout_ms = ms;
    }
    if let Some(Count(ms)) = o.result_timeout_ms {
        limits.result_timeout_ms = ms;
    }
    Ok(limits)
}

/// The rules' names by their constants' names (`rules.TOOLS_BEFORE_NAVIGATING_RESULT`).
#[wasm_bindgen]
pub fn rules() -> Object {
    let out = Object::new();
    for (name, rule) in [
        ("ACK_BEFORE_RESULT", ACK_BEFORE_RESULT),
        ("ANSWERED_ONCE", ANSWERED_ONCE),
        ("RESULT_WITHIN_DEADLINE", RESULT_WITHIN_DEADLINE),
        (
            "TOOLS_BEFORE_NAVIGATING_RESULT",
            TOOLS_BEFORE_NAVIGATING_RESULT,
        ),
        ("TOOL_NAMES_WITHIN_LIMITS", TOOL_NAMES_WITHIN_LIMITS),
        ("CALL_REFUSED", CALL_REFUSED),
    ] {
        set(&out, name, &rule.into());
    }
    out
}

#[wasm_bindgen(js_class = TestAgent)]
impl JsTestAgent {
    /// An agent with the protocol's deadlines, or shorter ones (`{ resultTimeoutMs: 2000 }`).
    #[wasm_bindgen(constructor)]
    pub fn new(limits_: JsValue) -> Result<JsTestAgent, JsValue> {
        Ok(JsTestAgent {
            agent: TestAgent::with_limits(limits(&limits_)?),
        })
    }

    /// `{ baseUrl, sessionId, token, fetch }` for `Client.register`.
    pub fn options(&self) -> Object {
        let out = Object::new();
        set(&out, "baseUrl", &BASE_URL.into());
        set(&out, "sessionId", &SESSION_ID.into());
        set(&out, "token", &TOKEN.into());
        set(&out, "fetch", &self.agent.fetch_function());
        out
    }

    /// What the model is offered now.
    pub fn tools(&self) -> Array {
        strings(&self.agent.tools())
    }

    /// The rules broken so far, oldest first: `{ rule, message }` each.
    pub fn violations(&self) -> Array {
        self.agent
            .violations()
            .iter()
            .map(|v| {
                let out = Object::new();
                set(&out, "rule", &v.rule.into());
                set(&out, "message", &v.message.as_str().into());
                JsValue::from(out)
            })
            .collect()
    }

    /// Throws a `ProtocolViolation` with the first rule broken so far, if any.
    pub fn check(&self) -> Result<(), JsValue> {
        self.agent.check().map_err(|v| violation_error(&v))
    }

    /// The model calls `tool` with `args`: a promise of the outcome, rejected with a
    /// `ProtocolViolation` naming the rule broken meanwhile.
    pub fn call(&self, tool: JsValue, args: JsValue) -> Promise {
        let agent = self.agent.clone();
        let input = tool_name(&tool, "call(tool)")
            .and_then(|t| Ok((t, arguments(&args, "call(tool, args): args")?)));
        future_to_promise(async move {
            let (tool, args) = input?;
            match agent.call(&tool, args).await {
                Ok(o) => Ok(outcome(&o)),
                Err(v) => Err(violation_error(&v)),
            }
        })
    }

    /// The model calls several tools at once (`[[tool, args], …]`, one run): a promise of
    /// their outcomes in the same order.
    #[wasm_bindgen(js_name = callConcurrent)]
    pub fn call_concurrent(&self, calls: JsValue) -> Promise {
        let agent = self.agent.clone();
        let input = (|| {
            if !Array::is_array(&calls) {
                return Err(type_error(
                    "callConcurrent(calls): calls must be an array of [tool, args] pairs",
                ));
            }
            let mut out = Vec::new();
            for (i, pair) in Array::from(&calls).iter().enumerate() {
                let what = format!("callConcurrent(calls): calls[{i}]");
                if !Array::is_array(&pair) {
                    return Err(type_error(&format!("{what}: must be a [tool, args] pair")));
                }
                let pair = Array::from(&pair);
                let tool = tool_name(&pair.get(0), &format!("{what}[0]"))?;
                out.push((tool, arguments(&pair.get(1), &format!("{what}[1]"))?));
            }
            Ok(out)
        })();
        future_to_promise(async move {
            let calls = input?;
            let calls = calls.iter().map(|(t, a)| (t.as_str(), a.clone())).collect();
            match agent.call_concurrent(calls).await {
                Ok(all) => Ok(all.iter().map(outcome).collect::<Array>().into()),
                Err(v) => Err(violation_error(&v)),
            }
        })
    }

    /// The agent cancels its run: its pending calls fail with `run_gone`.
    pub fn cancel(&self) {
        self.agent.cancel();
    }

    /// Every live registration lapses now: the client registers again.
    pub fn expire(&self) {
        self.agent.expire();
    }

    /// The next `n` requests of the client get `503`.
    #[wasm_bindgen(js_name = failNext)]
    pub fn fail_next(&self, n: u32) {
        self.agent.fail_next(n);
    }

    /// Ends the open event streams: the client reconnects with `Last-Event-ID`.
    #[wasm_bindgen(js_name = dropStream)]
    pub fn drop_stream(&self) {
        self.agent.drop_stream();
    }

    /// Sends every event from now on twice (`true`), or once again (`false`).
    #[wasm_bindgen(js_name = repeatEvents)]
    pub fn repeat_events(&self, on: bool) {
        self.agent.repeat_events(on);
    }

    /// The page is hidden (`true`) or shown again (`false`).
    pub fn hide(&self, hidden: bool) {
        self.agent.hide(hidden);
    }
}
