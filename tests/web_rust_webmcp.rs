//! Browser tests of `client_tools::webmcp::expose`, the Rust face of `exposeToWebMCP`, in
//! Chromium with `--enable-features=WebMCP,WebMCPTesting` (webdriver.json): a registry's tools
//! called through `document.modelContext.executeTool` as an in-browser agent calls them, a
//! Rust `Client` followed through `set_tools` (which completes once WebMCP has the new list),
//! the `Exposure` guard unregistering on drop, and `None` where the browser has no WebMCP.
//! Run with `wasm-pack test --headless --chrome -- --test web_rust_webmcp`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[path = "web_agents/support.rs"]
mod support;

use client_tools::webmcp::{self, ExposeOptions};
use client_tools::{BrowserOptions, Client, ErrorKind, Options, Registry, Tool};
use js_sys::Promise;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
// The tools the browser's agent is offered now, by name.
export async function names() {
  return (await document.modelContext.getTools()).map((t) => t.name).sort();
}

// Calls a tool as an in-browser agent does: its answer, or what went wrong.
export async function call(name, input) {
  const mc = document.modelContext;
  const tool = (await mc.getTools()).find((t) => t.name === name);
  if (!tool) return `not registered: ${name}`;
  try { return await mc.executeTool(tool, input); } catch (e) { return `rejected: ${e.name}: ${e.message}`; }
}

// Makes each registration with the browser take `ms` longer (so that it ends after the
// server's answer to the PUT); undone by `fast()`.
export function slow(ms) {
  const mc = document.modelContext;
  const register = mc.registerTool;
  mc.registerTool = async function (...args) {
    await new Promise((r) => setTimeout(r, ms));
    return register.apply(this, args);
  };
}
export function fast() {
  delete document.modelContext.registerTool;
}

// Hides WebMCP from the page while `f` runs, as a browser without it.
export async function withoutWebMcp(f) {
  const own = Object.getOwnPropertyDescriptor(document, "modelContext");
  Object.defineProperty(document, "modelContext", { configurable: true, value: undefined });
  try { return await f(); } finally {
    delete document.modelContext;
    if (own) Object.defineProperty(document, "modelContext", own);
  }
}
"#)]
extern "C" {
    fn names() -> Promise;
    fn call(name: &str, input: &JsValue) -> Promise;
    fn slow(ms: u32);
    fn fast();
    #[wasm_bindgen(js_name = withoutWebMcp)]
    fn without_webmcp(f: &js_sys::Function) -> Promise;
}

#[wasm_bindgen(module = "/tests/web/agent.js")]
extern "C" {
    #[wasm_bindgen(js_name = newSession)]
    fn new_session(base: &str) -> Promise;
}

const PRESENT: &str =
    "document.modelContext && typeof document.modelContext.executeTool === 'function'";
const NEEDS: &str = "WebMCP (document.modelContext.executeTool)";

async fn listed() -> Vec<String> {
    let v = JsFuture::from(names()).await.expect("getTools");
    serde_wasm_bindgen::from_value(v).expect("names")
}

/// The agent's call of `name`: the answer's text (an error is MCP's JSON with `isError`).
async fn agent_call(name: &str, input: Value) -> String {
    let input = js_sys::JSON::parse(&input.to_string()).unwrap();
    let answer = JsFuture::from(call(name, &input)).await.expect("a call");
    answer.as_string().unwrap_or_default()
}

fn open_order() -> Tool {
    Tool::new("open_order", "Opens an order.", |args, _ctx| async move {
        format!("order {} is open", args["id"])
    })
    .parameters(json!({"type": "object", "required": ["id"],
        "properties": {"id": {"type": "integer"}}}))
}

#[wasm_bindgen_test]
async fn a_registry_is_exposed_until_its_exposure_is_dropped() {
    if support::skipped_outside_chromium(
        "a_registry_is_exposed_until_its_exposure_is_dropped",
        PRESENT,
        NEEDS,
    ) {
        return;
    }
    let registry = Registry::new(vec![open_order()]).unwrap();
    let options = ExposeOptions {
        prefix: "r_".into(),
    };
    let exposure = webmcp::expose(&registry, options)
        .await
        .expect("registered")
        .expect("Chromium has WebMCP");
    assert_eq!(exposure.registered(), ["r_open_order"]);
    assert_eq!(listed().await, ["r_open_order"]);
    assert_eq!(
        agent_call("r_open_order", json!({"id": 7})).await,
        "order 7 is open"
    );
    let bad = agent_call("r_open_order", json!({"id": "seven"})).await;
    assert!(
        bad.contains("isError") && bad.contains("arguments.id"),
        "{bad}"
    );

    drop(exposure);
    // Unregistering is the browser's, once the abort reaches it.
    for _ in 0..100 {
        if listed().await.is_empty() {
            break;
        }
        JsFuture::from(support_sleep(10)).await.unwrap();
    }
    assert_eq!(
        listed().await,
        Vec::<String>::new(),
        "dropped: unregistered"
    );

    let bad = ExposeOptions {
        prefix: "bad-".into(),
    };
    let e = webmcp::expose(&registry, bad).await.err().expect("refused");
    assert_eq!(e.kind(), ErrorKind::InvalidOption);
    assert!(e.to_string().contains("with the prefix"), "{e}");
}

#[wasm_bindgen_test]
async fn a_rust_client_is_followed_and_set_tools_completes_once_webmcp_has_the_new_list() {
    if support::skipped_outside_chromium(
        "a_rust_client_is_followed_and_set_tools_completes_once_webmcp_has_the_new_list",
        PRESENT,
        NEEDS,
    ) {
        return;
    }
    let base = support::devserver();
    let session = JsFuture::from(new_session(base)).await.expect("a session");
    let session: Value = serde_wasm_bindgen::from_value(session).unwrap();
    let list = Tool::new(
        "list_orders",
        "Lists the orders.",
        |_args, _ctx| async move { "orders 1, 2, 3" },
    );
    let options = Options::new(
        base,
        session["id"].as_str().unwrap(),
        session["token"].as_str().unwrap(),
    )
    .tools(vec![list])
    .share_stream(false);
    let client = Client::register(options).await.expect("registered");

    let exposure = webmcp::expose(&client, ExposeOptions::default())
        .await
        .expect("registered")
        .expect("Chromium has WebMCP");
    assert_eq!(exposure.registered(), ["list_orders"]);
    assert_eq!(agent_call("list_orders", json!({})).await, "orders 1, 2, 3");

    // Registrations that end well after the server's answer to the PUT: set_tools waits.
    slow(300);
    client
        .set_tools(vec![open_order()])
        .await
        .expect("declared");
    fast();
    // No wait: set_tools completed once WebMCP held the new list too.
    assert_eq!(listed().await, ["open_order"]);
    assert_eq!(
        agent_call("open_order", json!({"id": 8})).await,
        "order 8 is open"
    );
    assert_eq!(
        agent_call("list_orders", json!({})).await,
        "not registered: list_orders"
    );

    drop(exposure);
    client
        .set_tools(vec![
            open_order(),
            Tool::new("other", "x", |_a, _c| async { "x" }),
        ])
        .await
        .expect("declared");
    for _ in 0..100 {
        if listed().await.is_empty() {
            break;
        }
        JsFuture::from(support_sleep(10)).await.unwrap();
    }
    assert_eq!(listed().await, Vec::<String>::new(), "no longer followed");
    client.leave().await.expect("left");
}

#[wasm_bindgen_test]
async fn where_the_browser_has_no_webmcp_nothing_is_exposed() {
    let registry = Registry::new(vec![open_order()]).unwrap();
    let registry = std::rc::Rc::new(registry);
    let r = registry.clone();
    let seen = Closure::<dyn FnMut() -> Promise>::new(move || {
        let r = r.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let exposed = webmcp::expose(&*r, ExposeOptions::default()).await;
            Ok(JsValue::from_bool(matches!(exposed, Ok(None))))
        })
    });
    let f: &js_sys::Function = seen.as_ref().unchecked_ref();
    let none = JsFuture::from(without_webmcp(f)).await.expect("ran");
    assert_eq!(none.as_bool(), Some(true), "Ok(None) without WebMCP");
}

fn support_sleep(ms: i32) -> Promise {
    Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    })
}
