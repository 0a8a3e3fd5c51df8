//! Browser tests of `exposeToWebMCP` in Chromium with `--enable-features=WebMCP,WebMCPTesting`
//! (webdriver.json at the crate root passes it): tools called through
//! `document.modelContext.executeTool(tool, input)` as an in-browser agent does: a page tool,
//! a bad argument, a throwing handler, a prefix, a `Client` followed through a `setTools` swap
//! and through its scopes (a call that swaps them answers after the new tools are registered),
//! an abort that unregisters everything, and a browser without WebMCP.
//! Run with `wasm-pack test --headless --chrome -- --test web_webmcp`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[path = "web_agents/support.rs"]
mod support;

use js_sys::Promise;
use serde_json::json;
use support::run;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The message of an error answer as Chromium's agent reads it: the JSON text of MCP's
/// `{ content: [{ type: "text", text }], isError: true }` (panics on anything else).
fn error_text(answer: &serde_json::Value) -> String {
    let text = answer
        .as_str()
        .unwrap_or_else(|| panic!("not text: {answer}"));
    let result: serde_json::Value =
        serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    assert_eq!(result["isError"], true, "{text}");
    assert_eq!(result["content"][0]["type"], "text", "{text}");
    result["content"][0]["text"].as_str().unwrap().to_owned()
}

#[wasm_bindgen(inline_js = r#"
const ROW = { type: "object", properties: { row_id: { type: "string" } }, required: ["row_id"] };

function modelContext() {
  const mc = document.modelContext;
  if (!mc || typeof mc.executeTool !== "function") {
    throw new Error("document.modelContext.executeTool is missing: run Chromium with --enable-features=WebMCP,WebMCPTesting (webdriver.json)");
  }
  return mc;
}

async function names() {
  return (await modelContext().getTools()).map((t) => t.name).sort();
}

// Calls a tool as an in-browser agent does; a rejection is reported with its name.
async function call(name, input) {
  const mc = modelContext();
  const tool = (await mc.getTools()).find((t) => t.name === name);
  if (!tool) return `not registered: ${name}`;
  try { return await mc.executeTool(tool, input); } catch (e) { return `rejected: ${e.name}`; }
}

export async function pageTools(t) {
  const seen = {};
  const div = document.createElement("div");
  div.innerHTML = `<form id="order"><label>Customer <input name="customer" value="Ada"></label>
    <button>Save</button></form>`;
  document.body.appendChild(div);
  const rows = [];
  const ac = new AbortController();
  try {
    seen.before = await names();
    const tools = [
      { name: "highlight_row", description: "Highlight a row.", parameters: ROW,
        handler: (args) => { rows.push(args.row_id); return `Row ${args.row_id} is highlighted.`; } },
      { name: "throws", handler: () => { throw new Error("the table is gone"); } },
      { name: "lookup", handler: () => ({ success: true, data: { rows: 3 } }) },
      t.sdk.describeFormTool({ form: div.querySelector("form") }),
    ];
    seen.exposed = await t.sdk.exposeToWebMCP(tools, { signal: ac.signal, prefix: "shop_" });
    seen.after = await names();
    const listed = (await modelContext().getTools()).filter((x) => x.name.startsWith("shop_"));
    seen.listed = Object.fromEntries(listed.map((x) => [x.name, {
      description: x.description,
      inputSchema: typeof x.inputSchema === "string" ? JSON.parse(x.inputSchema) : x.inputSchema,
      annotations: x.annotations ?? null,
    }]));
    seen.highlight = await call("shop_highlight_row", { row_id: "42" });
    seen.badArgument = await call("shop_highlight_row", { row_id: 42 });
    seen.noArgument = await call("shop_highlight_row", {});
    seen.thrown = await call("shop_throws", {});
    seen.lookup = await call("shop_lookup", {});
    seen.describe = JSON.parse(await call("shop_describe_form", {}));
    seen.rows = rows;
    // A second exposure of the same names is refused by the browser, and says so.
    try { await t.sdk.exposeToWebMCP(tools, { prefix: "shop_" }); seen.duplicate = "resolved"; }
    catch (e) { seen.duplicate = e.message; }
    ac.abort();
    seen.afterAbort = await names();
    try { await t.sdk.exposeToWebMCP(tools, { prefix: "bad-" }); seen.badPrefix = "resolved"; }
    catch (e) { seen.badPrefix = e.message; }
  } finally {
    ac.abort();
    div.remove();
  }
  return seen;
}

export async function followsClient(t) {
  const seen = {};
  const ac = new AbortController();
  const client = await t.register(t.options({ name: "mcp", tools: [
    { name: "list_orders", annotations: { readOnlyHint: true }, handler: () => "orders 1, 2, 3" },
  ] }));
  try {
    const registry = t.sdk.ToolRegistry([
      { name: "open_order", parameters: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
        handler: (args) => `order ${args.id} is open` },
      { name: "slow", timeoutMs: 100, handler: () => new Promise(() => {}) },
    ]);
    seen.exposed = await t.sdk.exposeToWebMCP(client, { signal: ac.signal });
    seen.first = await names();
    // A followed client's tools keep their annotations (read from the definition).
    seen.firstAnnotations = (await modelContext().getTools()).find((x) => x.name === "list_orders")?.annotations ?? null;
    seen.list = await call("list_orders", {});
    await client.setTools(registry);
    seen.swapped = await names();
    seen.open = await call("open_order", { id: 7 });
    seen.openBad = await call("open_order", { id: "7; drop table" });
    seen.gone = await call("list_orders", {});
    seen.timeout = await call("slow", {});
    // The Sessions side answers the same tools.
    const run = await t.a.startRun(t.base, t.s);
    const id = await t.a.callTool(t.base, t.s, run, `client__mcp__open_order`, { id: 8 });
    seen.sessions = (await t.a.waitCall(t.base, t.s, run, id, 8)).text;
    ac.abort();
    seen.afterAbort = await names();
    // After the abort a swap registers nothing.
    await client.setTools([{ name: "list_orders", handler: () => "x" }]);
    await t.a.sleep(50);
    seen.afterAbortSwap = await names();
    // A registry as the source.
    const ac2 = new AbortController();
    seen.fromRegistry = await t.sdk.exposeToWebMCP(registry, { signal: ac2.signal, prefix: "r_" });
    seen.fromRegistryCall = await call("r_open_order", { id: 1 });
    ac2.abort();
    seen.end = await names();
  } finally {
    ac.abort();
    await client.leave();
  }
  return seen;
}

// The ordering rule through WebMCP: a tool whose handler swaps the client's scopes (as a route
// change does) answers once the new scope's tools are registered with the browser. Scopes
// through the wasm export wrap.js wraps (`scope(0, tools)` opens, `scope(n, tools)` updates,
// `scope(n, undefined)` releases).
export async function followsScopes(t) {
  const seen = {};
  const ac = new AbortController();
  const client = await t.register(t.options({ name: "scoped", tools: [
    { name: "open_page", parameters: { type: "object", properties: { page: { type: "string" } }, required: ["page"] },
      handler: async (args) => {
        // What a router does: the old route's scope goes, the new one's comes, a beat later.
        await new Promise((r) => setTimeout(r, 20));
        client.scope(route, undefined);
        route = client.scope(0, args.page === "b" ? pageB : pageA);
        return `on page ${args.page}`;
      } },
  ] }));
  const pageA = [{ name: "edit_order", handler: () => "edited" }];
  const pageB = [{ name: "refund_order", handler: () => "refunded" }, { name: "print_order", handler: () => "printed" }];
  let route = 0;
  try {
    route = client.scope(0, pageA);
    seen.exposed = await t.sdk.exposeToWebMCP(client, { signal: ac.signal });
    seen.first = await names();
    seen.opened = await call("open_page", { page: "b" });
    // Read as soon as the call settled: the new page's tools are already there.
    seen.afterOpen = await names();
    seen.refund = await call("refund_order", {});
    seen.gone = await call("edit_order", {});
    // An update of the current scope, awaited, is registered too.
    await client.scope(route, [{ name: "refund_order", handler: () => "refunded again" }]);
    await t.a.sleep(50);
    seen.updated = await names();
    seen.refundAgain = await call("refund_order", {});
    // A Sessions call that swaps the scopes changes what WebMCP offers as well.
    const run = await t.a.startRun(t.base, t.s);
    const id = await t.a.callTool(t.base, t.s, run, `client__scoped__open_page`, { page: "a" });
    seen.sessions = (await t.a.waitCall(t.base, t.s, run, id, 8)).text;
    await t.a.sleep(50);
    seen.afterSessions = await names();
  } finally {
    ac.abort();
    await client.leave();
  }
  return seen;
}

// A followed client's new tools that cannot register are warned of (nobody awaits them): a name
// the prefix makes too long (the SDK's check), a tool the browser refuses (registerTool rejects).
export async function followWarnings(t) {
  const seen = { warnings: [] };
  const ac = new AbortController();
  const client = await t.register(t.options({ name: "warned", tools: [{ name: "kept", handler: () => "kept" }] }));
  const mc = modelContext();
  const warn = console.warn;
  console.warn = (...args) => { seen.warnings.push(args.join(" ")); };
  const register = mc.registerTool;
  mc.registerTool = function (tool, options) {
    if (tool.name === "p_refused") return Promise.reject(new DOMException("not now", "InvalidStateError"));
    return register.call(this, tool, options);
  };
  try {
    seen.exposed = await t.sdk.exposeToWebMCP(client, { signal: ac.signal, prefix: "p_" });
    await client.setTools([{ name: "a".repeat(63), handler: () => "long" }]);
    await t.a.sleep(50);
    seen.afterLong = await names();
    await client.setTools([{ name: "refused", handler: () => "refused" }]);
    await t.a.sleep(50);
    seen.afterRefused = await names();
  } finally {
    console.warn = warn;
    delete mc.registerTool;
    ac.abort();
    await client.leave();
  }
  return seen;
}

export async function unsupported(t) {
  const tools = [{ name: "x", handler: () => "x" }];
  const own = Object.getOwnPropertyDescriptor(document, "modelContext");
  Object.defineProperty(document, "modelContext", { configurable: true, value: undefined });
  try {
    return await t.sdk.exposeToWebMCP(tools);
  } finally {
    delete document.modelContext;
    if (own) Object.defineProperty(document, "modelContext", own);
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = pageTools)]
    fn page_tools(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = followsClient)]
    fn follows_client(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = followsScopes)]
    fn follows_scopes(t: &JsValue) -> Promise;
    fn unsupported(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = followWarnings)]
    fn follow_warnings(t: &JsValue) -> Promise;
}

#[wasm_bindgen_test]
async fn tools_are_called_through_model_context_execute_tool_with_errors_as_mcp_error_results() {
    if support::skipped_outside_chromium(
        "tools_are_called_through_model_context_execute_tool_with_errors_as_mcp_error_results",
        "document.modelContext && typeof document.modelContext.executeTool === 'function'",
        "WebMCP (document.modelContext.executeTool)",
    ) {
        return;
    }
    let seen = run(page_tools).await;
    assert_eq!(seen["before"], json!([]));
    let names = json!([
        "shop_describe_form",
        "shop_highlight_row",
        "shop_lookup",
        "shop_throws"
    ]);
    assert_eq!(
        seen["exposed"],
        json!({"supported": true, "registered": ["shop_highlight_row", "shop_throws", "shop_lookup", "shop_describe_form"]})
    );
    assert_eq!(seen["after"], names);
    let listed = &seen["listed"];
    assert_eq!(
        listed["shop_highlight_row"]["description"],
        "Highlight a row."
    );
    assert_eq!(
        listed["shop_highlight_row"]["inputSchema"],
        json!({"type": "object", "properties": {"row_id": {"type": "string"}}, "required": ["row_id"]})
    );
    assert_eq!(
        listed["shop_throws"]["inputSchema"],
        json!({"type": "object", "properties": {}})
    );
    // Describing a form changes nothing, and its answer is the page's text, not the app's.
    // (Chromium lists its other hints too, at their defaults.)
    let hints = &listed["shop_describe_form"]["annotations"];
    assert_eq!(
        (&hints["readOnlyHint"], &hints["untrustedContentHint"]),
        (&json!(true), &json!(true)),
        "{listed}"
    );
    assert_eq!(seen["highlight"], "Row 42 is highlighted.");
    let bad = error_text(&seen["badArgument"]);
    assert!(
        bad.starts_with("Invalid arguments for \"highlight_row\": ") && bad.contains("row_id"),
        "{bad}"
    );
    assert!(
        error_text(&seen["noArgument"]).starts_with("Invalid arguments"),
        "{}",
        seen["noArgument"]
    );
    assert_eq!(error_text(&seen["thrown"]), "the table is gone");
    assert_eq!(seen["lookup"], "{\"rows\":3}");
    assert!(
        seen["describe"].to_string().contains("customer"),
        "{}",
        seen["describe"]
    );
    assert_eq!(
        seen["rows"],
        json!(["42"]),
        "the handler never ran with a bad argument"
    );
    let duplicate = seen["duplicate"].as_str().unwrap();
    assert!(
        duplicate.starts_with("registerTool(\"shop_highlight_row\") was refused: "),
        "{duplicate}"
    );
    assert_eq!(seen["afterAbort"], json!([]));
    assert_eq!(
        seen["badPrefix"],
        "tools[0].name with the prefix: \"bad-highlight_row\": character '-' at position 3 breaks the tool name rule ^[a-zA-Z_][a-zA-Z0-9_]*$"
    );
}

#[wasm_bindgen_test]
async fn a_client_is_followed_through_set_tools_until_the_signal_aborts() {
    if support::skipped_outside_chromium(
        "a_client_is_followed_through_set_tools_until_the_signal_aborts",
        "document.modelContext && typeof document.modelContext.executeTool === 'function'",
        "WebMCP (document.modelContext.executeTool)",
    ) {
        return;
    }
    let seen = run(follows_client).await;
    assert_eq!(
        seen["exposed"],
        json!({"supported": true, "registered": ["list_orders"]})
    );
    assert_eq!(seen["first"], json!(["list_orders"]));
    assert_eq!(
        seen["firstAnnotations"]["readOnlyHint"], true,
        "{}",
        seen["firstAnnotations"]
    );
    assert_eq!(seen["list"], "orders 1, 2, 3");
    assert_eq!(seen["swapped"], json!(["open_order", "slow"]));
    assert_eq!(seen["open"], "order 7 is open");
    assert!(
        error_text(&seen["openBad"]).starts_with("Invalid arguments for \"open_order\""),
        "{}",
        seen["openBad"]
    );
    assert_eq!(seen["gone"], "not registered: list_orders");
    assert_eq!(error_text(&seen["timeout"]), "timed out after 100 ms");
    assert_eq!(seen["sessions"], "order 8 is open");
    assert_eq!(seen["afterAbort"], json!([]));
    assert_eq!(seen["afterAbortSwap"], json!([]));
    assert_eq!(
        seen["fromRegistry"],
        json!({"supported": true, "registered": ["r_open_order", "r_slow"]})
    );
    assert_eq!(seen["fromRegistryCall"], "order 1 is open");
    assert_eq!(seen["end"], json!([]));
}

#[wasm_bindgen_test]
async fn a_call_that_swaps_scopes_answers_once_the_new_tools_are_registered() {
    if support::skipped_outside_chromium(
        "a_call_that_swaps_scopes_answers_once_the_new_tools_are_registered",
        "document.modelContext && typeof document.modelContext.executeTool === 'function'",
        "WebMCP (document.modelContext.executeTool)",
    ) {
        return;
    }
    let seen = run(follows_scopes).await;
    assert_eq!(
        seen["exposed"],
        json!({"supported": true, "registered": ["open_page", "edit_order"]})
    );
    assert_eq!(seen["first"], json!(["edit_order", "open_page"]));
    assert_eq!(seen["opened"], "on page b");
    assert_eq!(
        seen["afterOpen"],
        json!(["open_page", "print_order", "refund_order"])
    );
    assert_eq!(seen["refund"], "refunded");
    assert_eq!(seen["gone"], "not registered: edit_order");
    assert_eq!(seen["updated"], json!(["open_page", "refund_order"]));
    assert_eq!(seen["refundAgain"], "refunded again");
    assert_eq!(seen["sessions"], "on page a");
    assert_eq!(seen["afterSessions"], json!(["edit_order", "open_page"]));
}

#[wasm_bindgen_test]
async fn without_webmcp_it_resolves_unsupported_and_never_throws() {
    let seen = run(unsupported).await;
    assert_eq!(seen, json!({"supported": false, "registered": []}));
}

#[wasm_bindgen_test]
async fn a_followed_client_s_tools_that_cannot_register_are_warned_of() {
    if support::skipped_outside_chromium(
        "a_followed_client_s_tools_that_cannot_register_are_warned_of",
        "document.modelContext && typeof document.modelContext.executeTool === 'function'",
        "WebMCP (document.modelContext.executeTool)",
    ) {
        return;
    }
    let seen = run(follow_warnings).await;
    assert_eq!(
        seen["exposed"],
        json!({"supported": true, "registered": ["p_kept"]})
    );
    assert_eq!(
        seen["warnings"],
        json!([
            "exposeToWebMCP: the client's new tools: tools[0].name with the prefix: 65 characters, at most 64",
            "exposeToWebMCP: the client's new tools: registerTool(\"p_refused\") was refused: InvalidStateError: not now",
        ]),
        "{}",
        seen["warnings"]
    );
    // The list the prefix broke is not registered: the one before stays.
    assert_eq!(seen["afterLong"], json!(["p_kept"]));
    // The refused tool is not registered; the one that went is unregistered.
    assert_eq!(seen["afterRefused"], json!([]));
}
