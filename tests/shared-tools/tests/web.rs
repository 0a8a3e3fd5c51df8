//! The shared tool module served by a page (client-tools' Rust API, no JS classes) to the
//! devserver, in headless Chromium. Run with
//! `wasm-pack test --headless --chrome tests/shared-tools` (`CLIENT_TOOLS_DEVSERVER` names the
//! devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

// tests/web/agent.js here links to the browser tests' own (tests/web/agent.js).
#[path = "../../web_rust/support.rs"]
mod support;

use client_tools::Client;
use support::{agent, options, session};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn the_shared_tools_answer_from_a_page() {
    let s = session().await;
    let client = Client::register(options(&s, "shared").tools(shared_tools::tools()))
        .await
        .expect("registered");
    let run = agent::start_run(&s).await;
    for (tool, args, is_error, text) in shared_tools::expected() {
        let out = agent::call(&s, &run, &format!("client__shared__{tool}"), args).await;
        assert_eq!(out["is_error"], is_error, "{tool}: {out}");
        assert_eq!(
            out["text"],
            shared_tools::with_run(&text, &run),
            "{tool}: {out}"
        );
    }
    let bad = agent::call(&s, &run, "client__shared__add", serde_json::json!({"a": 1})).await;
    assert_eq!(bad["is_error"], true, "the schema refuses it first: {bad}");
    client.leave().await.expect("left");
    support::assert_no_borrow_across_js("the test");
}

#[wasm_bindgen_test]
async fn every_builder_method_sets_what_it_says_in_a_page() {
    use client_tools::BrowserOptions;
    let s = session().await;
    let told = std::sync::Arc::new(shared_tools::Told::default());
    let opts = shared_tools::every_builder(support::devserver(), &s.id, &s.token, told.clone());
    shared_tools::check_every_builder(&opts);
    // The builders only a tab has.
    let opts = opts
        .share_stream(false)
        .when_hidden(client_tools::WhenHidden::Keep)
        .signal(web_sys::AbortController::new().unwrap().signal());
    let client = Client::register(opts).await.expect("registered");
    let run = agent::start_run(&s).await;
    let tool = "client__every__every";
    let ok = agent::call(&s, &run, tool, serde_json::json!({"text": "a@b.example"})).await;
    let bad = agent::call(&s, &run, tool, serde_json::json!({"text": "no email"})).await;
    shared_tools::check_every_builder_served(&ok, &bad, &told);
    client.leave().await.expect("left");
    support::assert_no_borrow_across_js("the test");
}
