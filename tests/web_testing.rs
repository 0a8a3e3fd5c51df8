//! `client_tools::testing`: the scripted agent in the page (no server, no port) driving the
//! Rust API through the `fetch` option, and the protocol rules it checks for the app.
//! Run with `wasm-pack test --headless --chrome -- --test web_testing`.
#![cfg(target_arch = "wasm32")]

use client_tools::testing::{TestAgent, TOOLS_BEFORE_NAVIGATING_RESULT};
use client_tools::{Client, ClientState, Lifetime, Tool};
use serde_json::json;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::JsValue;
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

/// Polls `check` every 10 ms for up to 3 s.
async fn eventually(what: &str, check: impl Fn() -> bool) {
    for _ in 0..300 {
        if check() {
            return;
        }
        sleep(10).await;
    }
    panic!("timed out waiting for {what}");
}

fn history() -> web_sys::History {
    web_sys::window().unwrap().history().unwrap()
}

fn href() -> String {
    web_sys::window().unwrap().location().href().unwrap()
}

/// A client named `nav` whose `navigate` handler changes the URL itself, as an app's router
/// does, and then (`declare_first`) declares the new screen's tools before it returns, or
/// leaves that to the app's route effect, after the result.
async fn navigating_app(agent: &TestAgent, declare_first: bool) -> Rc<RefCell<Option<Client>>> {
    let slot: Rc<RefCell<Option<Client>>> = Rc::default();
    let owner = slot.clone();
    let navigate = Tool::new("navigate", "Opens a screen.", move |_args, _ctx| {
        let owner = owner.clone();
        async move {
            let _ = history().push_state_with_url(&JsValue::NULL, "", Some("#orders"));
            let filter = Tool::new("filter_orders", "Filters the orders.", |_a, _c| async {
                "filtered"
            });
            if declare_first {
                let swap = owner.borrow().as_ref().map(|c| c.set_tools(vec![filter]));
                if let Some(swap) = swap {
                    swap.await.map_err(|e| e.to_string())?;
                }
            } else {
                // The router's effect declares the new screen's tools a moment later.
                let owner = owner.clone();
                wasm_bindgen_futures::spawn_local(async move {
                    sleep(20).await;
                    let swap = owner.borrow().as_ref().map(|c| c.set_tools(vec![filter]));
                    if let Some(swap) = swap {
                        let _ = swap.await;
                    }
                });
            }
            Ok::<_, String>("Opened the orders page.")
        }
    });
    let client = Client::register(agent.options().name("nav").tool(navigate))
        .await
        .expect("registered with the agent");
    *slot.borrow_mut() = Some(client);
    slot
}

#[wasm_bindgen_test]
async fn a_tool_answers_the_agent_in_the_page() {
    let agent = TestAgent::new();
    let ran = Rc::new(Cell::new(0));
    let count = ran.clone();
    let highlight = Tool::new("highlight_row", "Highlights a row.", move |args, _ctx| {
        count.set(count.get() + 1);
        async move {
            format!(
                "Row {} is highlighted.",
                args["row_id"].as_str().unwrap_or("?")
            )
        }
    })
    .parameters(json!({
        "type": "object",
        "properties": {"row_id": {"type": "string"}},
        "required": ["row_id"]
    }));
    let client = Client::register(agent.options().tool(highlight))
        .await
        .expect("registered with the agent");
    assert_eq!(client.state(), ClientState::Registered);
    assert_eq!(agent.tools(), ["client__web__highlight_row"]);
    let out = agent
        .call("highlight_row", json!({"row_id": "42"}))
        .await
        .expect("answered");
    assert_eq!(
        (out.text.as_str(), out.is_error),
        ("Row 42 is highlighted.", false)
    );
    let bad = agent
        .call("highlight_row", json!({"row_id": 42}))
        .await
        .unwrap();
    assert!(
        bad.is_error,
        "the arguments are checked first: {}",
        bad.text
    );
    let both = agent
        .call_concurrent(vec![
            ("highlight_row", json!({"row_id": "1"})),
            ("highlight_row", json!({"row_id": "2"})),
        ])
        .await
        .expect("both answered");
    assert_eq!(both[1].text, "Row 2 is highlighted.");
    assert_eq!(
        ran.get(),
        3,
        "the handler ran only for the arguments that fit"
    );
    agent.check().expect("no rule broken");
    client.leave().await.expect("left");
    assert_eq!(agent.tools(), Vec::<String>::new());
}

#[wasm_bindgen_test]
async fn faults_503s_a_dropped_stream_and_repeated_events_lose_no_call_and_run_no_handler_twice() {
    let agent = TestAgent::new();
    let ran = Rc::new(Cell::new(0));
    let count = ran.clone();
    let ping = Tool::new("ping", "Answers pong.", move |_args, _ctx| {
        count.set(count.get() + 1);
        async { "pong" }
    });
    let client = Client::register(agent.options().tool(ping))
        .await
        .expect("registered");
    agent.fail_next(2);
    assert_eq!(
        agent
            .call("ping", json!({}))
            .await
            .expect("after two 503s")
            .text,
        "pong"
    );
    agent.drop_stream();
    assert_eq!(
        agent
            .call("ping", json!({}))
            .await
            .expect("after a dropped stream")
            .text,
        "pong"
    );
    agent.repeat_events(true);
    assert_eq!(
        agent
            .call("ping", json!({}))
            .await
            .expect("with repeated events")
            .text,
        "pong"
    );
    assert_eq!(ran.get(), 3, "one handler run per call");
    agent.check().expect("no rule broken");
    agent.expire();
    eventually(
        "the client to register again after its registration lapsed",
        || agent.tools() == ["client__web__ping"],
    )
    .await;
    assert_eq!(
        agent
            .call("ping", json!({}))
            .await
            .expect("registered again")
            .text,
        "pong"
    );
    client.leave().await.expect("left");
}

/// A registration lapses at its TTL on the agent's own timer, as on the devserver, with no
/// request needed: here every ping fails (503), and `tools()` says the client is gone once
/// its 5 s are up. (Before: the agent applied deadlines only when a request or a call came,
/// so the lapsed client's tools stayed listed.)
#[wasm_bindgen_test]
async fn a_registration_whose_pings_fail_lapses_at_its_ttl_on_the_agents_timer() {
    let agent = TestAgent::new();
    let ping = Tool::new("ping", "Answers pong.", |_args, _ctx| async { "pong" });
    let options = agent
        .options()
        .lifetime(Lifetime::Ttl { seconds: 5 })
        .tool(ping);
    let client = Client::register(options).await.expect("registered");
    assert_eq!(agent.tools(), ["client__web__ping"]);
    agent.fail_next(u32::MAX);
    let mut waited = 0;
    while !agent.tools().is_empty() {
        assert!(
            waited < 9_000,
            "the registration outlived its 5-s TTL by 4 s: {:?}",
            agent.tools()
        );
        sleep(100).await;
        waited += 100;
    }
    assert!(waited >= 2_000, "lapsed after {waited} ms, before its TTL");
    agent.fail_next(0);
    let _ = client.leave().await;
}

#[wasm_bindgen_test]
async fn a_handler_that_navigates_directly_posts_its_result_before_the_new_tools_and_the_agent_names_the_rule(
) {
    let start = href();
    let agent = TestAgent::new();
    let slot = navigating_app(&agent, false).await;
    let out = agent.call("navigate", json!({})).await.expect("answered");
    assert_eq!(out.text, "Opened the orders page.");
    assert_eq!(
        out.tools,
        ["client__nav__navigate"],
        "the old screen's tools at the result"
    );
    eventually("the route effect's tools", || {
        agent.tools() == ["client__nav__filter_orders"]
    })
    .await;
    let broken = agent.check().expect_err("the rule is broken");
    assert_eq!(broken.rule, TOOLS_BEFORE_NAVIGATING_RESULT, "{broken}");
    assert!(
        broken
            .to_string()
            .starts_with("tools_declared_before_navigating_result: call "),
        "{broken}"
    );
    let client = slot.borrow_mut().take().unwrap();
    client.leave().await.expect("left");
    let _ = history().replace_state_with_url(&JsValue::NULL, "", Some(&start));
}

#[wasm_bindgen_test]
async fn a_handler_that_navigates_and_declares_the_new_tools_before_returning_breaks_no_rule() {
    let start = href();
    let agent = TestAgent::new();
    let slot = navigating_app(&agent, true).await;
    let out = agent.call("navigate", json!({})).await.expect("answered");
    assert_eq!(out.text, "Opened the orders page.");
    assert_eq!(
        out.tools,
        ["client__nav__filter_orders"],
        "the new screen's tools at the result"
    );
    agent.check().expect("no rule broken");
    let client = slot.borrow_mut().take().unwrap();
    client.leave().await.expect("left");
    let _ = history().replace_state_with_url(&JsValue::NULL, "", Some(&start));
}

#[wasm_bindgen_test]
async fn a_hidden_tab_leaves_and_comes_back_with_when_hidden_leave() {
    use client_tools::{BrowserOptions, WhenHidden};
    let agent = TestAgent::new();
    let tool = Tool::new("ping", "Answers pong.", |_args, _ctx| async { "pong" });
    let options = agent.options().tool(tool).when_hidden(WhenHidden::Leave);
    let client = Client::register(options).await.expect("registered");
    agent.hide(true);
    eventually("the hidden tab to leave", || agent.tools().is_empty()).await;
    agent.hide(false);
    eventually("the shown tab to register again", || {
        agent.tools() == ["client__web__ping"]
    })
    .await;
    assert_eq!(
        agent.call("ping", json!({})).await.expect("answered").text,
        "pong"
    );
    agent.check().expect("no rule broken");
    client.leave().await.expect("left");
}

/// `Limits` comes with the agent (`client_tools::testing::Limits`), so an app's test can
/// shorten a deadline without depending on `client-tools-sessions`: a handler that never
/// returns is answered by the client itself at the 300-ms result deadline, no rule broken.
#[wasm_bindgen_test]
async fn a_shorter_result_deadline_from_the_agents_limits_answers_a_stuck_handler() {
    use client_tools::testing::Limits;
    let agent = TestAgent::with_limits(Limits {
        result_timeout_ms: 300,
        ..Limits::default()
    });
    let stuck = Tool::new("stuck", "Never returns.", |_args, _ctx| {
        std::future::pending::<&'static str>()
    });
    let client = Client::register(agent.options().tool(stuck))
        .await
        .expect("registered");
    let out = agent.call("stuck", json!({})).await.expect("answered");
    assert!(
        out.is_error && out.text.contains("timed out"),
        "{}",
        out.text
    );
    agent.check().expect("no rule broken");
    client.leave().await.expect("left");
}
