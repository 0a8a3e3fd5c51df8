//! The Leptos example driven by an agent through the devserver's agent routes (issue 43):
//! a call changes what the page shows; a navigating call's result is posted after the new
//! route's tools are declared, in one `PUT`; a component that unmounts takes its tools with it;
//! the page tools read the list and fill the form.
//! Run with `CLIENT_TOOLS_DEVSERVER=http://… wasm-pack test --headless --chrome examples/leptos`
//! (`scripts/test` starts the devserver and sets it).
#![cfg(target_arch = "wasm32")]

use client_tools::{BrowserOptions, Dialect};
use client_tools_leptos_example::agent::Agent as App;
use client_tools_leptos_example::mount;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

// The agent's side: the SDK's own browser tests' helpers (tests/web/agent.js), one file.
#[wasm_bindgen(module = "/../../tests/web/agent.js")]
extern "C" {
    #[wasm_bindgen(js_name = newSession)]
    fn new_session(base: &str) -> js_sys::Promise;
    #[wasm_bindgen(js_name = startRun)]
    fn start_run(base: &str, s: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = callTool)]
    fn call_tool(base: &str, s: &JsValue, run: &str, tool: &str, args: &JsValue)
        -> js_sys::Promise;
    #[wasm_bindgen(js_name = waitCall)]
    fn wait_call(base: &str, s: &JsValue, run: &str, call: &str, seconds: u32) -> js_sys::Promise;
    fn events(base: &str, s: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = modelTools)]
    fn model_tools(base: &str, s: &JsValue) -> js_sys::Promise;
    fn sleep(ms: u32) -> js_sys::Promise;
}

// A voice agent's side: the devserver's voice simulator (tests/web/ws_agent.js).
#[wasm_bindgen(module = "/../../tests/web/ws_agent.js")]
extern "C" {
    #[wasm_bindgen(js_name = openSocket)]
    fn open_socket(base: &str, s: &JsValue, dialect: &str) -> js_sys::Promise;
    #[wasm_bindgen(js_name = placeCall)]
    fn place_call(base: &str, s: &JsValue, body: &JsValue) -> js_sys::Promise;
    #[wasm_bindgen(js_name = waitWsCall)]
    fn wait_ws_call(base: &str, s: &JsValue, id: &str, seconds: u32) -> js_sys::Promise;
}

/// The devserver's URL: `scripts/test` starts it and passes it in at build time.
fn devserver() -> &'static str {
    match option_env!("CLIENT_TOOLS_DEVSERVER") {
        Some(url) => url,
        None => {
            panic!("build with CLIENT_TOOLS_DEVSERVER naming the devserver (scripts/test sets it)")
        }
    }
}

async fn read<T: DeserializeOwned>(what: &str, p: js_sys::Promise) -> T {
    let v = JsFuture::from(p)
        .await
        .unwrap_or_else(|e| panic!("{what}: {e:?}"));
    let text = js_sys::JSON::stringify(&v).unwrap().as_string().unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{what}: {text}: {e}"))
}

/// A devserver session and a run of its agent.
struct Agent {
    session: JsValue,
    id: String,
    token: String,
    run: String,
}

impl Agent {
    async fn new() -> Agent {
        let session = JsFuture::from(new_session(devserver()))
            .await
            .expect("a session");
        let s: Value = read("the session", js_sys::Promise::resolve(&session)).await;
        let run = read("a run", start_run(devserver(), &session)).await;
        let (id, token) = (
            s["id"].as_str().unwrap().into(),
            s["token"].as_str().unwrap().into(),
        );
        Agent {
            session,
            id,
            token,
            run,
        }
    }

    /// The model calls the app's `tool`: the call's id.
    async fn call_tool(&self, tool: &str, args: Value) -> String {
        let args = js_sys::JSON::parse(&args.to_string()).unwrap();
        read(
            "a call",
            call_tool(
                devserver(),
                &self.session,
                &self.run,
                &format!("client__leptos__{tool}"),
                &args,
            ),
        )
        .await
    }

    /// The model calls `tool` and reads its outcome: `{ is_error, text }`.
    async fn call(&self, tool: &str, args: Value) -> Value {
        let id = self.call_tool(tool, args).await;
        self.outcome(&id).await
    }

    async fn outcome(&self, id: &str) -> Value {
        read(
            "the outcome",
            wait_call(devserver(), &self.session, &self.run, id, 8),
        )
        .await
    }

    /// The app's tools as the model is offered them, sorted, without the client's prefix.
    async fn tools(&self) -> Vec<String> {
        let v: Value = read("the tools", model_tools(devserver(), &self.session)).await;
        let mut names: Vec<String> = (v["tools"].as_array().into_iter().flatten())
            .filter_map(|t| {
                t["name"]
                    .as_str()?
                    .strip_prefix("client__leptos__")
                    .map(str::to_owned)
            })
            .collect();
        names.sort();
        names
    }

    /// The session's event types, in order.
    async fn events(&self) -> Vec<Value> {
        read("the events", events(devserver(), &self.session)).await
    }

    /// How many times the client replaced its tools so far.
    async fn replacements(&self) -> usize {
        self.events()
            .await
            .iter()
            .filter(|e| e["type"] == "client_tools_replaced")
            .count()
    }
}

async fn wait_for(what: &str, check: impl Fn() -> bool) {
    for _ in 0..250 {
        if check() {
            return;
        }
        let _ = JsFuture::from(sleep(20)).await;
    }
    panic!("timed out after 5 s waiting for {what}");
}

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn query(selector: &str) -> Option<web_sys::Element> {
    document().query_selector(selector).unwrap()
}

#[wasm_bindgen_test]
async fn an_agent_uses_the_apps_tools_and_follows_its_routes() {
    let agent = Agent::new().await;
    // A <div> of its own: replacing the body would hang the test runner.
    let root: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&root).unwrap();
    let options = client_tools::Options::new(devserver(), &agent.id, &agent.token)
        .name("leptos")
        .share_stream(false);
    let tools = App::default();
    tools.connect(options);
    let app = mount(root.clone(), tools);
    let expect = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<Vec<_>>();

    // Registered with the tools of the mounted components: the list's and the navigation's.
    for _ in 0..250 {
        if agent.tools().await == expect(&["highlight_order", "navigate", "read_orders"]) {
            break;
        }
        let _ = JsFuture::from(sleep(20)).await;
    }
    assert_eq!(
        agent.tools().await,
        expect(&["highlight_order", "navigate", "read_orders"])
    );

    // The page tool reads the table as shown; the app's tool changes what the page shows.
    let table = agent.call("read_orders", json!({})).await;
    assert_eq!(table["is_error"], false, "{table}");
    assert!(table["text"].as_str().unwrap().contains("Grace"), "{table}");
    let out = agent.call("highlight_order", json!({"id": 2})).await;
    assert_eq!(out["is_error"], false, "{out}");
    wait_for("row 2 highlighted", || {
        query("tr.highlighted[data-id='2']").is_some()
    })
    .await;
    let unknown = agent.call("highlight_order", json!({"id": 9})).await;
    assert_eq!(unknown["is_error"], true, "{unknown}");
    assert!(
        unknown["text"]
            .as_str()
            .unwrap()
            .contains("no order has the id 9"),
        "{unknown}"
    );

    // A component that mounts declares its tools, and takes them with it when it unmounts:
    // one PUT each time.
    let before = agent.replacements().await;
    let toggle: web_sys::HtmlElement = query("input[type=checkbox]").unwrap().unchecked_into();
    toggle.click();
    wait_for("the filter panel", || query("#filter").is_some()).await;
    let filtered = expect(&[
        "filter_orders",
        "highlight_order",
        "navigate",
        "read_orders",
    ]);
    for _ in 0..250 {
        if agent.tools().await == filtered {
            break;
        }
        let _ = JsFuture::from(sleep(20)).await;
    }
    assert_eq!(agent.tools().await, filtered);
    let out = agent.call("filter_orders", json!({"text": "ada"})).await;
    assert_eq!(out["is_error"], false, "{out}");
    wait_for("only Ada's order shown", || {
        document()
            .query_selector_all("#orders tbody tr")
            .unwrap()
            .length()
            == 1
    })
    .await;
    toggle.click();
    wait_for("the panel closed", || query("#filter").is_none()).await;
    for _ in 0..250 {
        if !agent.tools().await.contains(&"filter_orders".to_string()) {
            break;
        }
        let _ = JsFuture::from(sleep(20)).await;
    }
    assert_eq!(
        agent.tools().await,
        expect(&["highlight_order", "navigate", "read_orders"])
    );
    assert_eq!(
        agent.replacements().await - before,
        2,
        "one PUT when the panel opened, one when it closed"
    );

    // A navigating call: the router moves, the list unmounts and the form mounts, and the
    // result is posted after that one PUT declared the new route's tools.
    let before = agent.replacements().await;
    let id = agent
        .call_tool("navigate", json!({"url": "/orders/new"}))
        .await;
    let out = agent.outcome(&id).await;
    assert_eq!(out["is_error"], false, "{out}");
    assert!(query("form#new-order").is_some(), "the new route is shown");
    // The session's events from the call's dispatch on: the route's one PUT comes before
    // the call's result.
    let events = agent.events().await;
    let dispatched = (events.iter())
        .position(|e| e["type"] == "client_tool_dispatched" && e["data"]["call_id"] == id.as_str())
        .expect("the call was dispatched");
    let log: Vec<String> = (events[dispatched..].iter())
        .filter(|e| e["type"] == "client_tools_replaced" || e["data"]["call_id"] == id.as_str())
        .map(|e| e["type"].as_str().unwrap_or_default().to_owned())
        .collect();
    // (The ack may come before or after the PUT.)
    let at = |kind: &str| log.iter().position(|e| e == kind);
    assert!(
        at("client_tools_replaced").is_some()
            && at("client_tools_replaced") < at("client_tool_succeeded"),
        "the new route's tools are declared before the navigating call's result: {log:?}"
    );
    assert_eq!(
        agent.replacements().await - before,
        1,
        "one PUT for the route change"
    );
    assert_eq!(agent.tools().await, expect(&["fill_form", "navigate"]));

    // The form's page tool fills what a person would type.
    let out = agent
        .call(
            "fill_form",
            json!({"fields": {"Customer": "Barbara", "Total": "19.90"}}),
        )
        .await;
    assert_eq!(out["is_error"], false, "{out}");
    let customer: web_sys::HtmlInputElement =
        query("input[name=customer]").unwrap().unchecked_into();
    assert_eq!(customer.value(), "Barbara");

    // Back to the list through the router: the old route's tools come back.
    let out = agent.call("navigate", json!({"url": "/"})).await;
    assert_eq!(out["is_error"], false, "{out}");
    assert_eq!(
        agent.tools().await,
        expect(&["highlight_order", "navigate", "read_orders"])
    );

    drop(app);
    root.remove();
}

/// The voice agent's side of one call: placed on the simulator, answered over the socket.
async fn voice_call(session: &JsValue, tool: &str, parameters: Value) -> Value {
    let body = json!({"tool_name": tool, "parameters": parameters}).to_string();
    let body = js_sys::JSON::parse(&body).unwrap();
    let id: String = read("a voice call", place_call(devserver(), session, &body)).await;
    read("its outcome", wait_ws_call(devserver(), session, &id, 8)).await
}

#[wasm_bindgen_test]
async fn a_voice_agent_calls_the_same_tools_over_its_socket_and_they_follow_the_route() {
    let session = JsFuture::from(new_session(devserver()))
        .await
        .expect("a session");
    let socket: web_sys::WebSocket = JsFuture::from(open_socket(devserver(), &session, "cartesia"))
        .await
        .expect("a socket on the voice simulator")
        .unchecked_into();
    let root: web_sys::HtmlElement = document().create_element("div").unwrap().unchecked_into();
    document().body().unwrap().append_child(&root).unwrap();
    let tools = App::default();
    tools
        .voice(&socket, Dialect::Cartesia)
        .expect("a valid list");
    let app = mount(root.clone(), tools.clone());
    let names = |tools: &App| -> Vec<String> {
        let declared = tools.voice_declarations();
        let mut names: Vec<String> = (declared.as_array().into_iter().flatten())
            .map(|d| d["name"].as_str().unwrap_or_default().to_owned())
            .collect();
        names.sort();
        names
    };
    // The router renders its route in a task of its own.
    let list = ["highlight_order", "navigate", "read_orders"];
    wait_for("the list's tools", || names(&tools) == list).await;

    // The list's own tool, called by voice, changes what the page shows.
    let out = voice_call(&session, "highlight_order", json!({"id": 3})).await;
    assert_eq!(out["state"], "answered", "{out}");
    assert_eq!(out["result"], "Order 3 is highlighted.", "{out}");
    wait_for("row 3 highlighted", || {
        query("tr.highlighted[data-id='3']").is_some()
    })
    .await;

    // A navigating call: the form's tools replace the list's before the result goes back.
    let out = voice_call(&session, "navigate", json!({"url": "/orders/new"})).await;
    assert_eq!(out["is_error"], false, "{out}");
    assert!(query("form#new-order").is_some(), "the new route is shown");
    assert_eq!(names(&tools), ["fill_form", "navigate"]);
    let gone = voice_call(&session, "highlight_order", json!({"id": 3})).await;
    assert_eq!(
        gone["is_error"], true,
        "the list's tool left with it: {gone}"
    );
    let out = voice_call(
        &session,
        "fill_form",
        json!({"fields": {"Customer": "Alan"}}),
    )
    .await;
    assert_eq!(out["is_error"], false, "{out}");
    let customer: web_sys::HtmlInputElement =
        query("input[name=customer]").unwrap().unchecked_into();
    assert_eq!(customer.value(), "Alan");
    assert!(tools.failure().is_none());

    // Back to the list: its tools come back.
    let out = voice_call(&session, "navigate", json!({"url": "/"})).await;
    assert_eq!(out["is_error"], false, "{out}");
    assert_eq!(names(&tools), list);
    drop(app);
    socket.close().unwrap();
    root.remove();
}
