//! Browser tests of the Rust API (`client_tools::{Client, Options, Tool, CallContext}`), as a
//! Rust web app or a `wasm-pack test` suite uses it: register; a call answered; typed
//! arguments refused naming the field; `set_tools` swapped before the result of the call that
//! asked for it; `leave` twice; cancellation reaching a handler when its run is cancelled.
//! Where a test needs only the platform's side it runs against the in-page agent
//! (`client_tools::testing`, which also checks the protocol rules); where it reads what only the
//! server knows (its client count, the model's schemas, a refused token) against a real
//! devserver (`CLIENT_TOOLS_DEVSERVER` names it; `scripts/test` sets it).
//! Run with `wasm-pack test --headless --chrome -- --test web_rust_api`.
#![cfg(target_arch = "wasm32")]

#[path = "web_rust/support.rs"]
mod support;

use client_tools::testing::{CallOutcome, TestAgent, Violation};
use client_tools::{CallContext, Client, ClientState, ErrorKind, Options, Tool};
use serde::Deserialize;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use support::{agent, options, session, sleep, wait_for};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn a_client_registers_and_answers_a_call() {
    let agent = TestAgent::new();
    let seen: Rc<RefCell<Vec<String>>> = Rc::default();
    let log = seen.clone();
    let lookup = Tool::new(
        "lookup",
        "Looks an order up.",
        move |args, ctx: CallContext| {
            let log = log.clone();
            async move {
                log.borrow_mut()
                    .push(format!("{} {}", ctx.tool(), ctx.run_id()));
                assert!(ctx.remaining().as_millis() > 0, "a deadline ahead");
                json!({"order": args["id"], "status": "shipped"})
            }
        },
    )
    .parameters(
        json!({"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}),
    );
    let client = Client::register(agent.options().name("rust").tool(lookup))
        .await
        .expect("registered");
    assert!(
        client.id().is_some_and(|id| id.starts_with("cli_")),
        "{:?}",
        client.id()
    );
    assert_eq!(client.name().as_deref(), Some("rust"));
    assert_eq!(client.state(), ClientState::Registered);
    assert!(client.expires_at().is_some(), "a TTL lifetime");
    let out = agent
        .call("client__rust__lookup", json!({"id": 7}))
        .await
        .expect("answered");
    assert!(!out.is_error, "{}", out.text);
    let text: Value = serde_json::from_str(&out.text).unwrap();
    assert_eq!(text, json!({"order": 7, "status": "shipped"}));
    let bad = agent
        .call("client__rust__lookup", json!({"id": "7"}))
        .await
        .expect("answered");
    assert!(bad.is_error, "the schema is checked first: {}", bad.text);
    let seen = seen.borrow().clone();
    assert!(
        seen.len() == 1 && seen[0].starts_with("lookup run_"),
        "the handler ran once, with its run: {seen:?}"
    );
    agent.check().expect("no rule broken");
    client.leave().await.expect("left");
    assert_eq!(agent.tools(), Vec::<String>::new(), "the client left");
    support::assert_no_borrow_across_js("the test");
}

#[derive(Deserialize)]
struct Highlight {
    row_id: String,
    #[serde(default)]
    color: Option<String>,
}

#[wasm_bindgen_test]
async fn typed_arguments_that_do_not_fit_are_refused_naming_the_field() {
    let agent = TestAgent::new();
    let ran = Rc::new(Cell::new(0));
    let counter = ran.clone();
    let highlight = Tool::typed(
        "highlight_row",
        "Highlights a row.",
        move |args: Highlight, _ctx| {
            counter.set(counter.get() + 1);
            let color = args.color.unwrap_or_else(|| "yellow".into());
            async move { format!("Row {} is {color}.", args.row_id) }
        },
    );
    let client = Client::register(agent.options().name("typed").tool(highlight))
        .await
        .expect("registered");
    let ok = agent
        .call("highlight_row", json!({"row_id": "42"}))
        .await
        .expect("answered");
    assert_eq!(
        (ok.is_error, ok.text.as_str()),
        (false, "Row 42 is yellow.")
    );
    let bad = agent
        .call("highlight_row", json!({"row_id": 42}))
        .await
        .expect("answered");
    assert!(bad.is_error, "{}", bad.text);
    assert!(
        bad.text
            .contains("row_id: invalid type: integer `42`, expected a string"),
        "{}",
        bad.text
    );
    let missing = agent
        .call("highlight_row", json!({}))
        .await
        .expect("answered");
    assert_eq!(
        missing.text,
        "the arguments do not fit: missing field `row_id`"
    );
    assert_eq!(
        ran.get(),
        1,
        "the handler ran only for the arguments that fit"
    );
    agent.check().expect("no rule broken");
    client.leave().await.expect("left");
    support::assert_no_borrow_across_js("the test");
}

/// Against the in-page agent (`client_tools::testing`): no devserver needed, and the agent
/// checks the rule itself (the tools the model was offered when the result arrived).
#[wasm_bindgen_test]
async fn set_tools_in_a_handler_is_declared_before_its_result() {
    let agent = TestAgent::new();
    let slot: Rc<RefCell<Option<Client>>> = Rc::default();
    let owner = slot.clone();
    let navigate = Tool::new("navigate", "Opens a screen.", move |_args, _ctx| {
        let owner = owner.clone();
        async move {
            let filter = Tool::new("filter_orders", "Filters the orders.", |_a, _c| async {
                "filtered"
            });
            // Taken out of the borrow before it is awaited.
            let swap = owner.borrow().as_ref().map(|c| c.set_tools(vec![filter]));
            match swap {
                Some(swap) => swap.await.map(|()| "Opened the orders page."),
                None => Ok("no client"),
            }
        }
    });
    let client = Client::register(agent.options().name("nav").tool(navigate))
        .await
        .expect("registered");
    *slot.borrow_mut() = Some(client);
    let out = agent.call("navigate", json!({})).await.expect("answered");
    assert_eq!(out.text, "Opened the orders page.");
    assert_eq!(
        out.tools,
        ["client__nav__filter_orders"],
        "the new list was declared before the result"
    );
    assert_eq!(agent.tools(), ["client__nav__filter_orders"]);
    agent.check().expect("no rule broken");
    let client = slot.borrow_mut().take().unwrap();
    client.leave().await.expect("left");
    support::assert_no_borrow_across_js("the test");
}

#[wasm_bindgen_test]
async fn leave_twice_is_fine_and_a_left_client_keeps_its_id() {
    let s = session().await;
    let client = Client::register(options(&s, "twice"))
        .await
        .expect("registered");
    let id = client.id();
    assert_eq!(agent::clients(&s).await, 1);
    client.leave().await.expect("left");
    assert_eq!(client.state(), ClientState::Left);
    assert_eq!(
        client.leave().await,
        Ok(()),
        "a second leave sends nothing and has the first one's outcome"
    );
    assert_eq!(client.id(), id, "still the id it had");
    assert_eq!(agent::clients(&s).await, 0);
    let e = client.set_tools(Vec::new()).await.expect_err("left");
    assert_eq!(e.kind(), ErrorKind::NotRegistered, "{e}");
    support::assert_no_borrow_across_js("the test");
}

// Issue 38 (behaviour in Rust): a second `leave` completes with the first one's outcome, when
// the first does. Before, it returned `Ok(())` at once, while the `DELETE` was still out.
#[wasm_bindgen_test]
async fn a_second_leave_waits_for_the_first_ones_outcome() {
    use std::future::Future;
    use std::task::{Context, Poll, Waker};
    let s = session().await;
    let client = Client::register(options(&s, "second-leave"))
        .await
        .expect("registered");
    let first = client.leave();
    let mut second = Box::pin(client.leave());
    // The `DELETE` cannot have been answered yet: nothing has run since it went out.
    let polled = second
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()));
    assert!(
        polled.is_pending(),
        "the second leave waits for the first's outcome, got {polled:?} at once"
    );
    assert_eq!(second.await, Ok(()), "the first leave's outcome");
    assert_eq!(agent::clients(&s).await, 0, "the server was told");
    assert_eq!(first.await, Ok(()));
    assert_eq!(client.leave().await, Ok(()), "once left, at once");
}

#[wasm_bindgen_test]
async fn bad_options_fail_naming_the_field_in_rust_spelling() {
    let s = session().await;
    let zero = std::time::Duration::ZERO;
    let tool = Tool::new("x", "", |_a, _c| async {}).timeout(zero);
    let e = Client::register(options(&s, "bad").tool(tool))
        .await
        .err()
        .expect("refused");
    assert_eq!(e.kind(), ErrorKind::InvalidOption);
    assert_eq!(e.field(), Some("tools[0].timeout"), "{e}");
    let e = Client::register(options(&s, "bad").register_timeout(zero))
        .await
        .err()
        .expect("refused");
    assert_eq!(e.to_string(), "register_timeout: zero, must be above 0");
    let e = Client::register(options(&s, "Bad Name"))
        .await
        .err()
        .expect("refused");
    assert_eq!(e.field(), Some("name"), "{e}");
    let e = Client::register(Options::new(support::devserver(), &s.id, "wrong-token"))
        .await
        .err()
        .expect("refused");
    assert_eq!(e.kind(), ErrorKind::Unauthorized, "{e}");
    support::assert_no_borrow_across_js("the test");
}

#[wasm_bindgen_test]
async fn a_cancelled_run_cancels_its_calls_handler() {
    let agent = TestAgent::new();
    let started = Rc::new(Cell::new(false));
    let seen: Rc<RefCell<Option<(bool, String)>>> = Rc::default();
    let (flag, record) = (started.clone(), seen.clone());
    let slow = Tool::new(
        "slow",
        "Waits to be cancelled.",
        move |_args, ctx: CallContext| {
            let (flag, record) = (flag.clone(), record.clone());
            async move {
                let signal = ctx.signal().expect("an AbortSignal");
                flag.set(true);
                ctx.cancelled().await;
                let reason = js_sys::Reflect::get(&signal, &"reason".into())
                    .ok()
                    .and_then(|r| js_sys::Reflect::get(&r, &"message".into()).ok())
                    .and_then(|m| m.as_string())
                    .unwrap_or_default();
                *record.borrow_mut() = Some((signal.aborted() && ctx.is_cancelled(), reason));
                "too late"
            }
        },
    );
    let client = Client::register(agent.options().name("cancel").tool(slow))
        .await
        .expect("registered");
    let outcome: Rc<RefCell<Option<Result<CallOutcome, Violation>>>> = Rc::default();
    let (caller, slot) = (agent.clone(), outcome.clone());
    wasm_bindgen_futures::spawn_local(async move {
        let out = caller.call("slow", json!({})).await;
        *slot.borrow_mut() = Some(out);
    });
    wait_for("the handler to start", || started.get()).await;
    agent.cancel();
    wait_for("the handler to be cancelled", || seen.borrow().is_some()).await;
    wait_for("the call to settle", || outcome.borrow().is_some()).await;
    let out = outcome
        .borrow_mut()
        .take()
        .unwrap()
        .expect("no rule broken");
    assert_eq!(out.failed, Some("run_gone"), "the call failed with its run");
    let (aborted, reason) = seen.borrow().clone().unwrap();
    assert!(aborted, "the signal aborted and the context says cancelled");
    assert!(!reason.is_empty(), "the signal's reason says why");
    sleep(100).await;
    client.leave().await.expect("left");
    support::assert_no_borrow_across_js("the test");
}

#[wasm_bindgen_test]
async fn a_page_tool_made_in_rust_fills_a_form() {
    use client_tools::tools::{describe_form, fill_form, FormOptions};
    use wasm_bindgen::JsCast;
    let s = session().await;
    let document = web_sys::window().unwrap().document().unwrap();
    // The fixture in its own appended <div>, removed at the end.
    let div = document.create_element("div").unwrap();
    div.set_inner_html(
        r#"<form id="order"><label>Customer <input name="customer" value="Ada"></label>
        <label>Password <input type="password" name="pw"></label><button>Save</button></form>"#,
    );
    document.body().unwrap().append_child(&div).unwrap();
    let form: web_sys::HtmlFormElement = div
        .query_selector("form")
        .unwrap()
        .unwrap()
        .unchecked_into();
    let tools = vec![
        fill_form(FormOptions::default().form(form.clone())).expect("valid options"),
        describe_form(FormOptions::default().root(div.clone()).name("read_form")).expect("valid"),
    ];
    assert_eq!(tools[0].name(), "fill_form");
    let bad = fill_form(FormOptions::default().sensitive(&["[".to_owned()]));
    assert!(
        bad.err()
            .is_some_and(|e| e.to_string().contains("is not a valid CSS selector")),
        "a bad selector is refused when the tool is made"
    );
    let client = Client::register(options(&s, "forms").tools(tools))
        .await
        .expect("registered");
    let run = agent::start_run(&s).await;
    let args = json!({"fields": {"customer": "Grace", "pw": "hunter2"}});
    let out = agent::call(&s, &run, "client__forms__fill_form", args).await;
    let input: web_sys::HtmlInputElement = div
        .query_selector("[name=customer]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    let pw: web_sys::HtmlInputElement = div
        .query_selector("[name=pw]")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(input.value(), "Grace", "filled: {out}");
    assert_eq!(
        pw.value(),
        "",
        "a password is refused without allow_sensitive: {out}"
    );
    let text = out["text"].as_str().unwrap_or_default();
    assert!(text.contains("customer"), "{text}");
    let read = agent::call(&s, &run, "client__forms__read_form", json!({})).await;
    assert_eq!(read["is_error"], false, "{read}");
    assert!(
        read["text"].as_str().unwrap_or_default().contains("Grace"),
        "{read}"
    );
    let schemas = agent::model_tool_schemas(&s).await;
    assert_eq!(
        schemas["client__forms__fill_form"]["properties"].get("form"),
        None,
        "a pinned form takes the form argument out of the schema"
    );
    client.leave().await.expect("left");
    div.remove();
    support::assert_no_borrow_across_js("the test");
}

#[wasm_bindgen_test]
async fn the_navigate_tool_made_in_rust_declares_the_new_screens_tools_before_its_result() {
    use client_tools::tools::{navigate, NavigateOptions};
    let agent = TestAgent::new();
    let slot: Rc<RefCell<Option<Client>>> = Rc::default();
    let paths: Rc<RefCell<Vec<String>>> = Rc::default();
    let (owner, seen) = (slot.clone(), paths.clone());
    let nav = navigate(NavigateOptions::default().router(move |path| {
        let (owner, seen) = (owner.clone(), seen.clone());
        async move {
            seen.borrow_mut().push(path);
            let screen = Tool::new("filter_orders", "Filters the orders.", |_a, _c| async {
                "ok"
            });
            let swap = owner.borrow().as_ref().map(|c| c.set_tools(vec![screen]));
            if let Some(swap) = swap {
                swap.await.expect("the new screen's tools");
            }
        }
    }))
    .expect("valid options");
    let client = Client::register(agent.options().name("router").tool(nav))
        .await
        .expect("registered");
    *slot.borrow_mut() = Some(client);
    let out = agent
        .call("navigate", json!({"url": "/orders?q=7"}))
        .await
        .expect("answered");
    assert!(!out.is_error, "{}", out.text);
    assert_eq!(paths.borrow().clone(), ["/orders?q=7"]);
    assert_eq!(
        out.tools,
        ["client__router__filter_orders"],
        "the new screen's tools were declared before the result"
    );
    agent.check().expect("no rule broken");
    let client = slot.borrow_mut().take().unwrap();
    client.leave().await.expect("left");
    support::assert_no_borrow_across_js("the test");
}
