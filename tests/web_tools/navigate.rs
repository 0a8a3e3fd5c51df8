//! navigate: History API with popstate, the app's router, confirm, and page loads deferred.

use client_tools::tools::navigate_tool;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

use crate::support::*;

fn here() -> String {
    web_sys::window().unwrap().location().href().unwrap()
}

/// Puts the test page's address back after a test pushed a route.
struct RestoreUrl(String);

impl Drop for RestoreUrl {
    fn drop(&mut self) {
        let h = web_sys::window().unwrap().history().unwrap();
        h.replace_state_with_url(&JsValue::NULL, "", Some(&self.0))
            .unwrap();
    }
}

#[wasm_bindgen_test]
async fn same_origin_paths_use_push_state_and_popstate() {
    let _restore = RestoreUrl(here());
    let fx = Fixture::new("");
    fx.js("root.pops = []; root.onpop = () => root.pops.push(location.pathname + location.search); window.addEventListener('popstate', root.onpop);");
    let a = call(
        &navigate_tool(None).unwrap(),
        r#"{"url": "/orders/42?tab=items#top"}"#,
    )
    .await;
    fx.js("window.removeEventListener('popstate', root.onpop);");
    assert!(!a.is_error, "{}", a.text);
    let d = a.json();
    assert_eq!(
        (d["path"].as_str(), d["via"].as_str()),
        (Some("/orders/42?tab=items#top"), Some("history"))
    );
    let loc = web_sys::window().unwrap().location();
    assert_eq!(loc.pathname().unwrap(), "/orders/42");
    assert_eq!(
        fx.js("return root.pops.join()").as_string().unwrap(),
        "/orders/42?tab=items"
    );
}

#[wasm_bindgen_test]
async fn a_router_gets_the_path_and_confirm_can_stop_it() {
    let _restore = RestoreUrl(here());
    let fx = Fixture::new("");
    fx.js("root.routes = []; window.__routerRoot = root;");
    let router = js_fn(
        "p",
        "window.__routerRoot.routes.push(p); return new Promise(r => setTimeout(r, 5));",
    );
    let tool = navigate_tool(Some(with(&options("{}"), "router", &router))).unwrap();
    let a = call(&tool, r#"{"url": "/settings"}"#).await;
    assert!(!a.is_error, "{}", a.text);
    assert_eq!(a.json()["via"], "router");
    assert_eq!(
        fx.js("return root.routes.join()").as_string().unwrap(),
        "/settings"
    );

    let no = js_fn(
        "a",
        "window.__routerRoot.asked = a.kind + ' ' + a.crossDocument; return false;",
    );
    let tool = navigate_tool(Some(with(
        &with(&options("{}"), "router", &router),
        "confirm",
        &no,
    )))
    .unwrap();
    refused(&call(&tool, r#"{"url": "/danger"}"#).await, "declined");
    assert_eq!(
        fx.js("return root.routes.join()").as_string().unwrap(),
        "/settings"
    );
    assert_eq!(
        fx.js("return root.asked").as_string().unwrap(),
        "navigate false"
    );

    let failing = js_fn("p", "return Promise.reject(new Error('no such route'))");
    let tool = navigate_tool(Some(with(&options("{}"), "router", &failing))).unwrap();
    refused(&call(&tool, r#"{"url": "/nope"}"#).await, "no such route");
    fx.js("delete window.__routerRoot;");
}

#[wasm_bindgen_test]
async fn other_allowed_sites_and_document_mode_load_only_after_the_result() {
    let before = here();
    let tool = navigate_tool(Some(options(
        r#"{"allowOrigins": ["https://docs.example"]}"#,
    )))
    .unwrap();
    let a = call(&tool, r#"{"url": "https://docs.example/guide"}"#).await;
    assert!(!a.is_error, "{}", a.text);
    assert!(a.json()["outcome"]
        .as_str()
        .unwrap()
        .contains("once this result is posted"));
    assert_eq!(a.deferred, 1, "the load is handed to ctx.afterResult");
    let doc = navigate_tool(Some(options(r#"{"mode": "document"}"#))).unwrap();
    let b = call(&doc, r#"{"url": "/elsewhere"}"#).await;
    assert_eq!((b.is_error, b.deferred), (false, 1));
    assert_eq!(here(), before, "nothing moved before the result");
}

#[wasm_bindgen_test]
fn malformed_options_throw_at_once() {
    for bad in [
        r#"{"allowOrigins": ["ftp://x.example"]}"#,
        r#"{"allowOrigins": "https://x.example"}"#,
        r#"{"mode": "teleport"}"#,
        r#"{"name": "has space"}"#,
        r#"{"router": 3}"#,
    ] {
        assert!(navigate_tool(Some(options(bad))).is_err(), "{bad} accepted");
    }
}
