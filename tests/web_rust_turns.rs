//! Browser tests of `client_tools::TurnTools`, the Rust face of the JS `TurnTools`: a turn's
//! calls run concurrently through the call runtime and answered in the calls' order (a
//! result as `output`, a failure, an unknown tool and bad arguments as `error`), `on_call`
//! told of each, a call answered before skipped, `max_calls_per_run` counted across the turns
//! of the run, and an unreadable response refused naming the path. No server.
//! Run with `wasm-pack test --headless --chrome -- --test web_rust_turns`.
#![cfg(target_arch = "wasm32")]

use client_tools::{CallContext, ErrorKind, Tool, TurnCallEvent, TurnTools, TurnToolsOptions};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
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

fn tools(order: Rc<RefCell<Vec<String>>>) -> Vec<Tool> {
    let row = json!({"type": "object", "required": ["row_id"], "properties": {"row_id": {"type": "string"}}});
    let (slow, fast) = (order.clone(), order);
    vec![
        // Slow first: the responses still come in the calls' order.
        Tool::new("slow", "Slow.", move |_a, _c: CallContext| {
            let order = slow.clone();
            async move {
                let _ = JsFuture::from(sleep(40)).await;
                order.borrow_mut().push("slow".into());
                json!({"done": true})
            }
        }),
        Tool::new("highlight_row", "Highlight a row.", move |args, _c| {
            fast.borrow_mut().push("highlight_row".into());
            async move {
                format!(
                    "Row {} is highlighted.",
                    args["row_id"].as_str().unwrap_or("?")
                )
            }
        })
        .parameters(row),
        Tool::new("fails", "Fails.", |_a, _c| async {
            Err::<String, _>("API returned 503".to_owned())
        }),
        Tool::new("limited", "Once a run.", |_a, _c| async { "ok" }).max_calls_per_run(1),
    ]
}

fn turn(calls: Value) -> Value {
    json!({"outputs": [{"text": "Let me look."}, {"toolCalls": {"toolCalls": calls}}]})
}

fn responses(input: &Value) -> &Vec<Value> {
    input["toolResponses"]["toolResponses"]
        .as_array()
        .expect("toolResponses")
}

#[wasm_bindgen_test]
async fn a_turns_calls_are_answered_in_order_and_reported() {
    let order = Rc::new(RefCell::new(Vec::new()));
    let events = Rc::new(RefCell::new(Vec::new()));
    let seen = events.clone();
    let turns = TurnTools::new(
        tools(order.clone()),
        TurnToolsOptions::default().on_call(move |e| seen.borrow_mut().push(e.clone())),
    )
    .unwrap();
    let response = turn(json!([
        {"id": "c1", "tool": "projects/p/tools/slow"},
        {"id": "c2", "tool": "projects/p/tools/t2", "displayName": "highlight_row", "args": {"row_id": "42"}},
        {"id": "c3", "tool": "projects/p/tools/fails"},
        {"id": "c4", "tool": "projects/p/tools/nope"},
        {"id": "c5", "tool": "projects/p/tools/highlight_row", "args": {"row_id": 42}},
    ]));
    let input = turns
        .answer(&response)
        .await
        .unwrap()
        .expect("calls to answer");
    let r = responses(&input);
    let ids: Vec<&str> = r.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["c1", "c2", "c3", "c4", "c5"]);
    assert_eq!(r[0]["response"]["output"], json!({"done": true}));
    assert_eq!(r[1]["response"]["output"], "Row 42 is highlighted.");
    assert_eq!(r[1]["displayName"], "highlight_row");
    assert_eq!(r[2]["response"]["error"], "API returned 503");
    assert!(
        r[3]["response"]["error"].as_str().unwrap().contains("nope"),
        "{}",
        r[3]
    );
    assert!(
        r[4]["response"]["error"]
            .as_str()
            .unwrap()
            .contains("row_id"),
        "{}",
        r[4]
    );
    assert_eq!(
        *order.borrow(),
        ["highlight_row", "slow"],
        "run concurrently"
    );

    let events = events.borrow();
    let dispatched: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            TurnCallEvent::Dispatched { id, .. } => Some(id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(dispatched, ["c1", "c2", "c3"], "refused calls never start");
    let answered: Vec<(&str, &str, bool)> = events
        .iter()
        .filter_map(|e| match e {
            TurnCallEvent::Answered {
                id, tool, is_error, ..
            } => Some((id.as_str(), tool.as_str(), *is_error)),
            _ => None,
        })
        .collect();
    // A call refused before running is reported under the session's name for it (as in JS).
    assert_eq!(
        answered,
        [
            ("c1", "slow", false),
            ("c2", "highlight_row", false),
            ("c3", "fails", true),
            ("c4", "projects/p/tools/nope", true),
            ("c5", "projects/p/tools/highlight_row", true)
        ]
    );
    match &events[events.len() - 5] {
        TurnCallEvent::Answered { elapsed_ms, .. } => {
            assert!(*elapsed_ms >= 30, "{elapsed_ms}")
        }
        other => panic!("expected c1 answered, got {other:?}"),
    }
}

#[wasm_bindgen_test]
async fn answered_calls_are_skipped_limits_span_the_run_and_bad_responses_are_refused() {
    let order = Rc::new(RefCell::new(Vec::new()));
    let turns = TurnTools::new(
        tools(order),
        TurnToolsOptions::default().run_id("conversation-1"),
    )
    .unwrap();
    let first = turn(json!([{"id": "l1", "tool": "projects/p/tools/limited"}]));
    let input = turns.answer(&first).await.unwrap().unwrap();
    assert_eq!(responses(&input)[0]["response"]["output"], "ok");
    assert_eq!(
        turns.answer(&first).await.unwrap(),
        None,
        "a call answered before is skipped"
    );
    let second = json!({"toolCalls": [{"id": "l2", "tool": "projects/p/tools/limited"}]});
    let input = turns.answer(&second).await.unwrap().unwrap();
    assert!(
        responses(&input)[0]["response"].get("error").is_some(),
        "{input}"
    );
    assert_eq!(turns.answer(&json!({"outputs": []})).await.unwrap(), None);

    let bad = turns.answer(&json!({"outputs": 3})).await.unwrap_err();
    assert_eq!(bad.kind(), ErrorKind::InvalidOption);
    assert!(bad.to_string().starts_with("outputs: "), "{bad}");

    let bad_tool = Tool::new("get-time", "x", |_a, _c| async { "" });
    let e = TurnTools::new(vec![bad_tool], TurnToolsOptions::default())
        .err()
        .unwrap();
    assert!(e.to_string().starts_with("tools[0].name: "), "{e}");
}
