//! A tool module written once: the same code is a page's tools (client-tools, wasm32) and a
//! worker's (client-tools-native), with no `cfg` in the tool code: the alias below is all.

#[cfg(target_arch = "wasm32")]
use client_tools as sdk;
#[cfg(not(target_arch = "wasm32"))]
use client_tools_native as sdk;

use sdk::{CallContext, CallEvent, Lifetime, Options, Paths, Status, Tool};
use serde::Deserialize;
use serde_json::json;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
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

/// How often each callback of [`every_builder`]'s options ran.
#[derive(Default)]
pub struct Told {
    pub statuses: AtomicUsize,
    pub calls: AtomicUsize,
    pub tokens: AtomicUsize,
}

/// Options that use every builder method of `Options` and `Tool` once: this module compiles
/// only if each exists on both shells (the core's one builder of each). Its tool `every`
/// answers its typed argument back; `spare` and `erased` are offered beside it.
pub fn every_builder(base_url: &str, session_id: &str, token: &str, told: Arc<Told>) -> Options {
    let every = Tool::typed(
        "every",
        "Says its text back.",
        |a: Echo, ctx: CallContext| async move { format!("{}: {}", ctx.tool(), a.text) },
    )
    .parameters(json!({"type": "object", "required": ["text"],
        "properties": {"text": {"type": "string", "format": "email"}}}))
    .timeout(Duration::from_secs(7))
    .max_calls_per_run(3)
    .assert_formats(true)
    .annotations(json!({"readOnlyHint": true}))
    .expects_response(false);
    let spare = Tool::new("spare", "Says nothing.", |_args, _ctx| async {});
    let erased = Tool::from_handler("erased", "Spare's handler.", spare.parts().handler.clone());
    let (statuses, calls, tokens) = (told.clone(), told.clone(), told);
    Options::new(base_url, session_id, token)
        .name("every")
        .lifetime(Lifetime::Ttl { seconds: 30 })
        .tool(every)
        .tools([spare, erased])
        .register_timeout(Duration::from_secs(20))
        .request_timeout(Duration::from_secs(10))
        .stream_idle_timeout(Duration::from_secs(40))
        .paths(Paths::default())
        .on_status(move |_: &Status| {
            statuses.statuses.fetch_add(1, Ordering::Relaxed);
        })
        .on_call(move |_: &CallEvent| {
            calls.calls.fetch_add(1, Ordering::Relaxed);
        })
        .token_source(move || {
            tokens.tokens.fetch_add(1, Ordering::Relaxed);
            async { Err::<String, String>("no fresh token in this test".to_owned()) }
        })
}

/// The arguments of `every`.
#[derive(Deserialize)]
pub struct Echo {
    pub text: String,
}

/// Checks that each builder of [`every_builder`] set what its doc says (the same on both
/// shells); panics naming the first that did not.
pub fn check_every_builder(options: &Options) {
    let o = options.parts();
    let s = &o.settings;
    assert_eq!(s.name, "every");
    assert_eq!(s.lifetime, Lifetime::Ttl { seconds: 30 });
    assert_eq!(s.register_timeout, Duration::from_secs(20));
    assert_eq!(s.request_timeout, Duration::from_secs(10));
    assert_eq!(s.stream_idle_timeout, Duration::from_secs(40));
    assert_eq!(s.paths, Paths::default());
    assert!(o.on_status.is_some() && o.on_call.is_some() && o.token_source.is_some());
    let names: Vec<&str> = o.tools.iter().map(|t| t.name()).collect();
    assert_eq!(names, ["every", "spare", "erased"]);
    let every = o.tools[0].parts();
    assert_eq!(every.def.spec.description, "Says its text back.");
    assert_eq!(
        every.def.spec.parameters.as_ref().unwrap()["properties"]["text"]["format"],
        "email"
    );
    assert_eq!(every.def.timeout_ms, Some(7_000));
    assert_eq!(every.def.max_calls_per_run, Some(3));
    assert!(every.def.assert_formats);
    assert_eq!(
        every.annotations.as_deref(),
        Some(r#"{"readOnlyHint":true}"#)
    );
    assert!(!every.expects_response);
    let spare = o.tools[1].parts();
    assert_eq!(spare.def.spec.parameters, None);
    assert_eq!(spare.def.timeout_ms, None);
    assert!(!spare.def.assert_formats && spare.annotations.is_none() && spare.expects_response);
}

/// Checks what serving [`every_builder`]'s tool did, on either shell: `ok` (an email) is the
/// text said back, `bad` (not an email) is refused by the format check `assert_formats`
/// turned on, and `on_status` and `on_call` were told while no fresh token was asked for.
/// `ok` and `bad` are the calls' outcomes as the devserver reports them.
pub fn check_every_builder_served(ok: &serde_json::Value, bad: &serde_json::Value, told: &Told) {
    assert_eq!(ok["is_error"], false, "{ok}");
    assert_eq!(ok["text"], "every: a@b.example", "{ok}");
    assert_eq!(
        bad["is_error"], true,
        "assert_formats asserts the format: {bad}"
    );
    assert!(
        told.statuses.load(Ordering::Relaxed) > 0,
        "on_status was told"
    );
    assert!(told.calls.load(Ordering::Relaxed) > 0, "on_call was told");
    assert_eq!(
        told.tokens.load(Ordering::Relaxed),
        0,
        "no 401, no fresh token"
    );
}
