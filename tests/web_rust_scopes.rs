//! Browser tests of tool scopes in the Rust API (`Client::scope`, `ToolScope`), against a real
//! devserver: the union of live scopes with one `PUT` for the changes of one task, the newest
//! scope's tool for a shared name and the older one's after it is dropped, an update over 64
//! tools refused naming the scope's tools with the last list kept, and a scope opened inside a
//! handler declared before that call's result (the ordering rule, with nothing awaited).
//! Run with `wasm-pack test --headless --chrome -- --test web_rust_scopes`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[path = "web_rust/support.rs"]
mod support;

use client_tools::{Client, ErrorKind, Tool, ToolScope};
use serde_json::json;
use std::cell::RefCell;
use std::rc::Rc;
use support::{agent, options, session, sleep};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn answering(name: &str, text: &'static str) -> Tool {
    Tool::new(
        name,
        "A tool of a scope.",
        move |_a, _c| async move { text },
    )
}

async fn replaced(s: &support::Session) -> usize {
    let events = agent::events(s).await;
    events
        .iter()
        .filter(|e| e["type"] == "client_tools_replaced")
        .count()
}

#[wasm_bindgen_test]
async fn scopes_make_one_union_with_the_newest_name_and_keep_the_last_good_list() {
    let s = session().await;
    let client = Client::register(options(&s, "scopes").tool(answering("nav", "nav")))
        .await
        .expect("registered");
    // Two scopes in one task: one PUT.
    let older = client
        .scope(vec![
            answering("search", "older"),
            answering("list", "list"),
        ])
        .expect("a scope");
    let newer = client
        .scope(vec![answering("search", "newer")])
        .expect("a scope");
    sleep(300).await;
    assert_eq!(replaced(&s).await, 1, "one PUT for two scopes");
    let model = agent::model_tools(&s).await;
    assert_eq!(
        model,
        [
            "client__scopes__list",
            "client__scopes__nav",
            "client__scopes__search"
        ]
    );
    let run = agent::start_run(&s).await;
    let out = agent::call(&s, &run, "client__scopes__search", json!({})).await;
    assert_eq!(out["text"], "newer", "{out}");
    drop(newer);
    sleep(300).await;
    let out = agent::call(&s, &run, "client__scopes__search", json!({})).await;
    assert_eq!(out["text"], "older", "{out}");
    // 64 of its own and the root's: 65, over 64: refused, naming this scope's tools.
    let many: Vec<Tool> = (0..64).map(|i| answering(&format!("t{i}"), "t")).collect();
    let e = older.update(many).await.expect_err("over 64 tools");
    assert_eq!(e.kind(), ErrorKind::InvalidOption);
    assert!(
        e.to_string().contains("[t0, t1, t2") && e.to_string().contains("64"),
        "{e}"
    );
    let before = replaced(&s).await;
    sleep(200).await;
    assert_eq!(replaced(&s).await, before, "no PUT for a refused update");
    let model = agent::model_tools(&s).await;
    assert_eq!(
        model,
        [
            "client__scopes__list",
            "client__scopes__nav",
            "client__scopes__search"
        ]
    );
    older.release();
    client.leave().await.expect("left");
}

#[wasm_bindgen_test]
async fn a_scope_opened_in_a_handler_is_declared_before_its_result() {
    let s = session().await;
    let slot: Rc<RefCell<Option<Client>>> = Rc::default();
    let kept: Rc<RefCell<Vec<ToolScope>>> = Rc::default();
    let (owner, keep) = (slot.clone(), kept.clone());
    let open = Tool::new("open", "Opens a screen.", move |_a, _c| {
        let (owner, keep) = (owner.clone(), keep.clone());
        async move {
            // Long enough for the ack's answer: the result could go out at once.
            sleep(300).await;
            // Opened and left to the SDK (nothing awaits the PUT), then answered in the same
            // poll: the SDK declares the scope before it posts the result.
            let scope = owner
                .borrow()
                .as_ref()
                .map(|c| c.scope(vec![answering("screen_tool", "s")]));
            if let Some(Ok(scope)) = scope {
                keep.borrow_mut().push(scope);
            }
            "opened"
        }
    });
    let client = Client::register(options(&s, "order").tool(open))
        .await
        .expect("registered");
    *slot.borrow_mut() = Some(client);
    let run = agent::start_run(&s).await;
    let id = agent::call_tool(&s, &run, "client__order__open", json!({})).await;
    let out = agent::wait_call(&s, &run, &id).await;
    assert_eq!(out["text"], "opened", "{out}");
    let log: Vec<String> = (agent::events(&s).await.iter())
        .filter(|e| e["type"] == "client_tools_replaced" || e["type"] == "client_tool_succeeded")
        .map(|e| e["type"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(
        log,
        ["client_tools_replaced", "client_tool_succeeded"],
        "the PUT first"
    );
    assert_eq!(kept.borrow().len(), 1);
    kept.borrow_mut().clear();
    let client = slot.borrow_mut().take().unwrap();
    client.leave().await.expect("left");
    support::assert_no_borrow_across_js("the test");
}
