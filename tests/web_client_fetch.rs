//! The `fetch` option: a function used instead of the global `fetch` for every request of the
//! client, the event stream included. A recording fetch carries the client's requests to a
//! real devserver while the global `fetch` notes any client request that reaches it.
//! Run with `wasm-pack test --headless --chrome -- --test web_client_fetch`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[path = "web_rust/support.rs"]
mod support;

use client_tools::{BrowserOptions, Client, Tool};
use js_sys::{Array, Function};
use serde_json::json;
use support::{agent, options, session};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
const clientRoute = (url) => /\/clients|\/stream/.test(new URL(url).pathname);
export function recordingFetch(log) {
  const real = globalThis.fetch.bind(globalThis);
  return (url, init) => {
    log.push(`${init.method} ${new URL(url).pathname.replace(/\/v1\/sessions\/[^/]+/, "")}`);
    return real(url, init);
  };
}
export function watchGlobalFetch(log) {
  const real = globalThis.fetch;
  globalThis.fetch = (url, init) => {
    if (clientRoute(String(url))) log.push(`${init && init.method} ${url}`);
    return real(url, init);
  };
  return () => { globalThis.fetch = real; };
}
export function throwingFetch() {
  return () => { throw new Error("the proxy is down"); };
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = recordingFetch)]
    fn recording_fetch(log: &Array) -> Function;
    #[wasm_bindgen(js_name = watchGlobalFetch)]
    fn watch_global_fetch(log: &Array) -> Function;
    #[wasm_bindgen(js_name = throwingFetch)]
    fn throwing_fetch() -> Function;
}

fn strings(a: &Array) -> Vec<String> {
    a.iter().filter_map(|v| v.as_string()).collect()
}

#[wasm_bindgen_test]
async fn a_custom_fetch_carries_every_request_and_the_stream() {
    let s = session().await;
    let (seen, global) = (Array::new(), Array::new());
    let fetch = recording_fetch(&seen);
    let restore = watch_global_fetch(&global);
    let echo = Tool::new(
        "echo",
        "Echoes.",
        |args: serde_json::Map<String, serde_json::Value>, _ctx| async move {
            serde_json::Value::Object(args).to_string()
        },
    );
    let client = Client::register(options(&s, "proxied").tool(echo).fetch(fetch))
        .await
        .expect("registered through the custom fetch");
    let run = agent::start_run(&s).await;
    let out = agent::call(&s, &run, "client__proxied__echo", json!({"a": 1})).await;
    assert_eq!(out["is_error"], false, "{out}");
    client.leave().await.expect("left");
    let _ = restore.call0(&JsValue::UNDEFINED);
    assert_eq!(
        strings(&global),
        Vec::<String>::new(),
        "no client request took the global fetch"
    );
    let seen = strings(&seen);
    let id = client.id().expect("an id");
    let call = |what: &str| {
        seen.iter()
            .any(|r| r.starts_with("POST /clients/") && r.ends_with(what))
    };
    assert_eq!(
        seen.first().map(String::as_str),
        Some("POST /clients"),
        "{seen:?}"
    );
    assert!(
        seen.iter().any(|r| r == "GET /stream"),
        "the stream: {seen:?}"
    );
    assert!(
        call("/ack") && call("/result"),
        "the ack and the result: {seen:?}"
    );
    assert_eq!(
        seen.last().cloned(),
        Some(format!("DELETE /clients/{id}")),
        "the leave: {seen:?}"
    );
}

#[wasm_bindgen_test]
async fn a_custom_fetch_that_throws_is_a_network_error_never_an_exception() {
    let s = session().await;
    let registered = Client::register(
        options(&s, "down")
            .register_timeout(std::time::Duration::from_millis(300))
            .fetch(throwing_fetch()),
    )
    .await;
    let Err(err) = registered else {
        panic!("no registration through a fetch that throws");
    };
    assert!(err.to_string().contains("the proxy is down"), "{err}");
}
