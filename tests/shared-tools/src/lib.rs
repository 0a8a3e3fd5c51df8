//! A tool module written once: the same code is a page's tools (client-tools, wasm32) and a
//! worker's (client-tools-native), with no `cfg` in the tool code: the alias below is all.

#[cfg(target_arch = "wasm32")]
use client_tools as sdk;
#[cfg(not(target_arch = "wasm32"))]
use client_tools_native as sdk;

use sdk::{CallContext, Tool};
use serde::Deserialize;
use serde_json::json;
use std::time::Duration;

/// The arguments of `add`.
#[derive(Deserialize)]
pub struct Sum {
    pub a: f64,
    pub b: f64,
}

/// The tools: `add` (typed arguments, a schema), `echo` (the call's context), `divide` (a
/// `Result`: `Err` is an `is_error` answer).
pub fn tools() -> Vec<Tool> {
    vec![
        Tool::typed("add", "Adds two numbers.", |s: Sum, _ctx| async move {
            json!({ "sum": s.a + s.b })
        })
        .parameters(json!({"type": "object", "required": ["a", "b"],
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}}})),
        Tool::new(
            "echo",
            "Says the text back.",
            |args, ctx: CallContext| async move {
                let text = args["text"].as_str().unwrap_or_default().to_owned();
                format!("{} in {}: {text}", ctx.tool(), ctx.run_id())
            },
        )
        .timeout(Duration::from_secs(5)),
        Tool::new("divide", "a / b.", |args, _ctx| async move {
            let (a, b) = (
                args["a"].as_f64().unwrap_or(0.0),
                args["b"].as_f64().unwrap_or(0.0),
            );
            if b == 0.0 {
                Err("division by zero".to_owned())
            } else {
                Ok(format!("{}", a / b))
            }
        })
        .max_calls_per_run(5),
    ]
}

/// What each call of the shared checks answers: the tool, the arguments, and the expected
/// `(is_error, text)`.
pub fn expected() -> Vec<(&'static str, serde_json::Value, bool, String)> {
    vec![
        (
            "add",
            json!({"a": 2, "b": 3.5}),
            false,
            r#"{"sum":5.5}"#.to_owned(),
        ),
        (
            "echo",
            json!({"text": "hi"}),
            false,
            "echo in {run}: hi".to_owned(),
        ),
        (
            "divide",
            json!({"a": 1, "b": 0}),
            true,
            "division by zero".to_owned(),
        ),
        ("divide", json!({"a": 9, "b": 3}), false, "3".to_owned()),
    ]
}

/// The expected text with the run's id in place.
pub fn with_run(text: &str, run: &str) -> String {
    text.replace("{run}", run)
}
