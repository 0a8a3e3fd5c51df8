//! The app's tools against `client_tools::testing`'s agent, in headless Chrome: no server, no
//! port. `wasm-pack test --headless --chrome examples/rust` (examples/run.sh).
#![cfg(target_arch = "wasm32")]

use client_tools::testing::{TestAgent, TOOLS_BEFORE_NAVIGATING_RESULT};
use orders_example::{Navigation, OrdersApp};
use serde_json::json;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

async fn sleep(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let w = web_sys::window().unwrap();
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    });
    let _ = JsFuture::from(p).await;
}

#[wasm_bindgen_test]
async fn highlight_row_highlights_the_row_the_agent_names() {
    let agent = TestAgent::new();
    let app = OrdersApp::mount(Navigation::DeclareFirst);
    app.connect(agent.options()).await.expect("registered");
    assert_eq!(
        agent.tools(),
        ["client__web__navigate", "client__web__highlight_row"]
    );

    let out = agent
        .call("highlight_row", json!({"row_id": "1003"}))
        .await
        .expect("answered");
    assert_eq!(
        (out.text.as_str(), out.is_error),
        ("Row 1003 is highlighted.", false)
    );
    let row = app.find("tr.highlight").expect("a highlighted row");
    assert_eq!(row.get_attribute("data-row-id").as_deref(), Some("1003"));

    let wrong = agent
        .call("highlight_row", json!({"row_id": "9999"}))
        .await
        .expect("answered");
    assert!(
        wrong.is_error && wrong.text.contains("no order 9999"),
        "{}",
        wrong.text
    );
    agent.check().expect("no rule broken");
    app.close().await;
}

#[wasm_bindgen_test]
async fn navigate_declares_the_new_screens_tools_before_it_answers() {
    let agent = TestAgent::new();
    let app = OrdersApp::mount(Navigation::DeclareFirst);
    app.connect(agent.options()).await.expect("registered");
    let out = agent
        .call("navigate", json!({"route": "/settings"}))
        .await
        .expect("answered");
    assert!(!out.is_error, "{}", out.text);
    assert_eq!(app.route(), "/settings");
    assert_eq!(
        out.tools,
        ["client__web__navigate"],
        "the new screen's tools at the result"
    );
    agent.check().expect("no rule broken");
    app.close().await;
}

#[wasm_bindgen_test]
async fn a_handler_that_navigates_with_the_router_directly_fails_with_the_rules_name() {
    let agent = TestAgent::new();
    let app = OrdersApp::mount(Navigation::Router);
    app.connect(agent.options()).await.expect("registered");
    // The result is posted before the route's effect declares the new tools. The call answers
    // with it (the old screen's tools at the result), or, when the effect's tools arrive
    // while the agent waits, fails with the rule itself: either way the rule is broken.
    match agent.call("navigate", json!({"route": "/settings"})).await {
        Ok(out) => assert!(
            out.tools.contains(&"client__web__highlight_row".to_owned()),
            "the old screen's tools at the result: {}",
            out.tools.join(", ")
        ),
        Err(v) => assert_eq!(v.rule, TOOLS_BEFORE_NAVIGATING_RESULT, "{v}"),
    }
    for _ in 0..300 {
        if agent.tools() == ["client__web__navigate"] {
            break;
        }
        sleep(10).await;
    }
    let broken = agent.check().expect_err("the rule is broken");
    assert_eq!(broken.rule, TOOLS_BEFORE_NAVIGATING_RESULT, "{broken}");
    app.close().await;
}
