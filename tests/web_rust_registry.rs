//! Browser tests of `client_tools::Registry`, the Rust face of the JS `ToolRegistry`: its
//! rules (names, duplicates, limits in Rust spelling), its exports, `filtered`/`without`, and
//! `execute` through the call runtime: an answer, arguments refused by the schema,
//! `max_calls_per_run` per `run_id`, an unknown name, the caller's deadline and signal
//! cancelling the handler, and a call id answered once (a failed one retried). No server.
//! Run with `wasm-pack test --headless --chrome -- --test web_rust_registry`.
#![cfg(target_arch = "wasm32")]

use client_tools::{
    Answer, AnswerKind, CallContext, Content, ErrorKind, ExecuteOptions, Registry, Tool,
};
use serde_json::json;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(
    inline_js = "export function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }"
)]
extern "C" {
    fn sleep(ms: u32) -> js_sys::Promise;
}

async fn pause(ms: u32) {
    let _ = JsFuture::from(sleep(ms)).await;
}

fn text(answer: &Answer) -> &str {
    match answer {
        Answer::Ok(Content::Text(t)) | Answer::Ok(Content::Json(t)) => t,
        Answer::Err { message, .. } => message,
    }
}

fn kind(answer: &Answer) -> Option<AnswerKind> {
    match answer {
        Answer::Err { kind, .. } => Some(*kind),
        Answer::Ok(_) => None,
    }
}

/// A tool that waits until its call is cancelled, recording that it was.
fn hang(name: &str, cancelled: Rc<Cell<u32>>) -> Tool {
    Tool::new(name, "Waits.", move |_args, ctx: CallContext| {
        let cancelled = cancelled.clone();
        async move {
            ctx.cancelled().await;
            cancelled.set(cancelled.get() + 1);
            "too late"
        }
    })
}

#[wasm_bindgen_test]
fn new_refuses_bad_tools_naming_them_in_rust_spelling() {
    let ok = || Tool::new("ok", "Fine.", |_a, _c| async { "ok" });
    let bad_name = Registry::new(vec![
        ok(),
        Tool::new("get-weather", "x", |_a, _c| async { "" }),
    ]);
    let e = bad_name.err().expect("a bad name is refused");
    assert_eq!(e.kind(), ErrorKind::InvalidOption);
    assert!(e.to_string().starts_with("tools[1].name: "), "{e}");
    assert!(e.to_string().contains("'-'"), "{e}");

    let twice = Registry::new(vec![ok(), ok()])
        .err()
        .expect("a name twice is refused");
    assert!(twice.to_string().starts_with("tools[1].name: "), "{twice}");
    assert!(twice.to_string().contains("already registered"), "{twice}");

    let zero = Registry::new(vec![ok(), ok().timeout(Duration::ZERO)]);
    let zero = zero.err().expect("a zero timeout is refused");
    assert_eq!(
        zero.to_string(),
        "tools[1].timeout: 0 ms, must be at least 1"
    );
}

#[wasm_bindgen_test]
fn exports_and_subsets() {
    let row = json!({"type": "object", "required": ["row_id"], "properties": {"row_id": {"type": "string"}}});
    let registry = Registry::new(vec![
        Tool::new("highlight_row", "Highlight a row.", |_a, _c| async { "" })
            .parameters(row.clone()),
        Tool::new("get_time", "The clock.", |_a, _c| async { "" }),
    ])
    .unwrap();
    assert_eq!(registry.names(), ["highlight_row", "get_time"]);
    assert!(registry.has("get_time") && !registry.has("nope"));
    let openai = registry.to_openai();
    assert_eq!(openai[0]["type"], "function");
    assert_eq!(openai[0]["function"]["name"], "highlight_row");
    assert_eq!(openai[0]["function"]["parameters"], row);
    assert_eq!(registry.to_openai_responses()[1]["name"], "get_time");
    assert_eq!(registry.to_anthropic()[0]["input_schema"], row);
    assert_eq!(registry.to_mcp()[0]["inputSchema"], row);
    assert_eq!(registry.to_mcp().as_array().map(Vec::len), Some(2));
    assert_eq!(registry.filtered(&["get_time"]).names(), ["get_time"]);
    assert_eq!(registry.without(&["get_time"]).names(), ["highlight_row"]);
}

#[wasm_bindgen_test]
async fn execute_runs_through_the_call_runtime() {
    let row = json!({"type": "object", "required": ["row_id"], "properties": {"row_id": {"type": "string"}}});
    let runs = Rc::new(RefCell::new(Vec::new()));
    let seen = runs.clone();
    let registry = Registry::new(vec![
        Tool::new(
            "highlight_row",
            "Highlight a row.",
            move |args, ctx: CallContext| {
                seen.borrow_mut().push(ctx.run_id().to_owned());
                async move {
                    format!(
                        "Row {} is highlighted.",
                        args["row_id"].as_str().unwrap_or("?")
                    )
                }
            },
        )
        .parameters(row),
        Tool::new("limited", "Twice a run.", |_a, _c| async { "ok" }).max_calls_per_run(2),
    ])
    .unwrap();
    let opts = ExecuteOptions::default;
    let answer = registry
        .execute("highlight_row", json!({"row_id": "42"}), opts())
        .await
        .unwrap();
    assert_eq!(
        answer,
        Answer::Ok(Content::Text("Row 42 is highlighted.".into()))
    );
    assert_eq!(
        runs.borrow().len(),
        1,
        "each call its own run: {:?}",
        runs.borrow()
    );

    let refused = registry
        .execute("highlight_row", json!({"row_id": 42}), opts())
        .await
        .unwrap();
    assert_eq!(
        kind(&refused),
        Some(AnswerKind::InvalidArguments),
        "{}",
        text(&refused)
    );
    assert!(text(&refused).contains("row_id"), "{}", text(&refused));
    assert_eq!(runs.borrow().len(), 1, "the handler did not run");

    let mut limited = Vec::new();
    for run in ["run_a", "run_a", "run_a", "run_b"] {
        let o = ExecuteOptions {
            run_id: Some(run.into()),
            ..opts()
        };
        limited.push(
            registry
                .execute("limited", json!({}), o)
                .await
                .unwrap()
                .is_error(),
        );
    }
    assert_eq!(limited, [false, false, true, false]);

    let unknown = registry
        .execute("nope", json!({}), opts())
        .await
        .unwrap_err();
    assert_eq!(unknown.kind(), ErrorKind::UnknownTool);
    assert_eq!(
        unknown.to_string(),
        "Unknown tool \"nope\": the registry has highlight_row, limited."
    );
    let empty = ExecuteOptions {
        call_id: Some(String::new()),
        ..opts()
    };
    let empty = registry
        .execute("limited", json!({}), empty)
        .await
        .unwrap_err();
    assert_eq!(empty.kind(), ErrorKind::InvalidOption);
}

#[wasm_bindgen_test]
async fn the_callers_deadline_and_signal_cancel_the_handler() {
    let cancelled = Rc::new(Cell::new(0));
    let registry = Registry::new(vec![hang("hang", cancelled.clone())]).unwrap();
    let o = ExecuteOptions {
        deadline: Some(Duration::from_millis(50)),
        ..Default::default()
    };
    let late = registry.execute("hang", json!({}), o).await.unwrap();
    assert_eq!(kind(&late), Some(AnswerKind::Timeout), "{}", text(&late));
    pause(10).await;
    assert_eq!(
        cancelled.get(),
        1,
        "the handler was cancelled at the deadline"
    );

    let controller = web_sys::AbortController::new().unwrap();
    let o = ExecuteOptions {
        signal: Some(controller.signal()),
        ..Default::default()
    };
    let running = registry.execute("hang", json!({}), o);
    pause(20).await;
    controller.abort();
    let e = running.await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Aborted);
    assert_eq!(e.to_string(), "execute(\"hang\"): aborted");
    pause(10).await;
    assert_eq!(
        cancelled.get(),
        2,
        "the handler was cancelled by the caller's signal"
    );

    let o = ExecuteOptions {
        signal: Some(controller.signal()),
        ..Default::default()
    };
    let e = registry.execute("hang", json!({}), o).await.unwrap_err();
    assert_eq!(
        e.kind(),
        ErrorKind::Aborted,
        "an aborted signal: nothing runs"
    );
}

#[wasm_bindgen_test]
async fn a_call_id_is_answered_once_and_a_failed_one_retried() {
    let count = Rc::new(Cell::new(0));
    let counted = count.clone();
    let cancelled = Rc::new(Cell::new(0));
    let registry = Registry::new(vec![
        Tool::new("count", "Counts.", move |_a, _c| {
            counted.set(counted.get() + 1);
            let n = counted.get();
            async move { format!("call {n}") }
        }),
        hang("hang", cancelled),
    ])
    .unwrap();
    let with_id = |id: &str| ExecuteOptions {
        call_id: Some(id.into()),
        ..Default::default()
    };
    let first = registry.execute("count", json!({}), with_id("c1"));
    let again = registry.execute("count", json!({}), with_id("c1"));
    assert_eq!(first.await.unwrap(), again.await.unwrap());
    let later = registry
        .execute("count", json!({}), with_id("c1"))
        .await
        .unwrap();
    assert_eq!(text(&later), "call 1");
    assert_eq!(count.get(), 1, "one run for one call id");
    let other = registry
        .execute("count", json!({}), with_id("c2"))
        .await
        .unwrap();
    assert_eq!(text(&other), "call 2");

    let controller = web_sys::AbortController::new().unwrap();
    let aborted = ExecuteOptions {
        signal: Some(controller.signal()),
        ..with_id("h1")
    };
    let running = registry.execute("hang", json!({}), aborted);
    pause(10).await;
    controller.abort();
    assert_eq!(running.await.unwrap_err().kind(), ErrorKind::Aborted);
    let retry = ExecuteOptions {
        deadline: Some(Duration::from_millis(20)),
        ..with_id("h1")
    };
    let retried = registry.execute("hang", json!({}), retry).await.unwrap();
    assert_eq!(
        kind(&retried),
        Some(AnswerKind::Timeout),
        "the failed call id ran again"
    );
}
