//! Browser tests of the strictness and the lifecycle a JS app relies on, against a real
//! devserver: unknown option keys refused with the nearest known one (register options, tool
//! definitions, page-tool options), malformed result objects answered as errors that say so,
//! `signal` aborting a pending or a completed registration, a repeated `leave`, and `expiresAt`
//! of a `never` lifetime.
//! Run with `wasm-pack test --headless --chrome -- --test web_client_strict`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[allow(dead_code)] // support::strings is not needed here
#[path = "web_client/support.rs"]
mod support;

use js_sys::Promise;
use serde_json::json;
use support::run;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
const message = (p) => p.then(() => "resolved", (e) => e.message);

export async function unknownKeys(t) {
  const tool = { name: "ok", handler: () => "ok" };
  return {
    top: await message(t.register(t.options({ whenHiden: "pause" }))),
    caseOnly: await message(t.register(t.options({ baseURL: "x" }))),
    far: await message(t.register(t.options({ colour: "blue" }))),
    tool: await message(t.register(t.options({ tools: [tool, { name: "b", handlr: () => "" }] }))),
    clients: (await t.a.clients(t.base, t.s)).length,
  };
}

export async function malformedResults(t) {
  const tools = [
    { name: "snake", handler: () => ({ is_error: true, text: "meant as an error" }) },
    { name: "flag", handler: () => ({ isError: "yes", text: "meant as an error" }) },
    { name: "text", handler: async () => ({ isError: true, text: 42 }) },
    { name: "good", handler: () => ({ isError: true, text: "a real error" }) },
    { name: "json", handler: () => ({ text: "a plain object", n: 1 }) },
  ];
  const client = await t.register(t.options({ name: "results", tools }));
  const run = await t.a.startRun(t.base, t.s);
  const out = {};
  for (const { name } of tools) {
    const id = await t.a.callTool(t.base, t.s, run, `client__${client.name}__${name}`, {});
    const o = await t.a.waitCall(t.base, t.s, run, id, 8);
    out[name] = { is_error: o.is_error, text: o.text };
  }
  await client.leave();
  return out;
}

export async function abortPending(t) {
  const abort = new AbortController();
  const pending = t.register(t.options({ name: "aborted", tools: [{ name: "x", handler: () => "" }], signal: abort.signal }));
  abort.abort();
  const outcome = await pending.then(() => "resolved", (e) => `${e.name}`);
  // The POST may have been answered meanwhile: the registration is undone when it is.
  await t.a.sleep(500);
  const already = new AbortController();
  already.abort(new Error("gone before"));
  const before = await t.register(t.options({ signal: already.signal })).then(() => "resolved", (e) => e.message);
  return { outcome, before, clients: (await t.a.clients(t.base, t.s)).length, tools: await t.a.modelTools(t.base, t.s) };
}

export async function abortRegistered(t) {
  const abort = new AbortController();
  const client = await t.register(t.options({ name: "done", lifetime: { type: "never" }, signal: abort.signal }));
  const expiresAt = client.expiresAt;
  const registered = (await t.a.clients(t.base, t.s)).length;
  abort.abort();
  await t.a.waitFor("the client to leave", async () => (await t.a.clients(t.base, t.s)).length === 0);
  const again = await message(client.leave());
  return { expiresAt, registered, state: client.state, again };
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = unknownKeys)]
    fn unknown_keys(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = malformedResults)]
    fn malformed_results(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = abortPending)]
    fn abort_pending(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = abortRegistered)]
    fn abort_registered(t: &JsValue) -> Promise;
}

#[wasm_bindgen_test]
async fn an_unknown_option_key_is_refused_naming_the_nearest_known_one() {
    let r = run(unknown_keys).await;
    assert_eq!(
        r["top"],
        "whenHiden: unknown option; did you mean whenHidden?"
    );
    assert_eq!(
        r["caseOnly"],
        "baseURL: unknown option; did you mean baseUrl?"
    );
    assert_eq!(
        r["far"],
        "colour: unknown option; the options are baseUrl, sessionId, token, name, lifetime, \
         whenHidden, tools, registerTimeoutMs, requestTimeoutMs, streamIdleTimeoutMs, onStatus, onCall, \
         signal, shareStream, fetch"
    );
    assert_eq!(
        r["tool"],
        "tools[1].handlr: unknown option; did you mean handler?"
    );
    assert_eq!(r["clients"], 0, "nothing was registered: {r}");
}

#[wasm_bindgen_test]
fn an_unknown_page_tool_option_is_refused_naming_the_nearest_known_one() {
    let options = |key: &str| {
        let o = js_sys::Object::new();
        js_sys::Reflect::set(&o, &key.into(), &JsValue::TRUE).unwrap();
        Some(o)
    };
    let message = |r: Result<JsValue, JsValue>| {
        let e = r.expect_err("refused");
        let code = js_sys::Reflect::get(&e, &"code".into()).unwrap();
        assert_eq!(code.as_string().as_deref(), Some("invalid_option"));
        String::from(e.unchecked_into::<js_sys::Error>().message())
    };
    assert_eq!(
        message(client_tools::tools::describe_form_tool(options(
            "allowSensitiv"
        ))),
        "options.allowSensitiv: unknown option; did you mean allowSensitive?"
    );
    // The navigate tool has no form options: `form` is unknown there.
    assert_eq!(
        message(client_tools::tools::navigate_tool(options("form"))),
        "options.form: unknown option; the options are name, description, timeoutMs, \
         maxCallsPerRun, allowOrigins, router, mode, confirm"
    );
    assert_eq!(
        message(client_tools::tools::navigate_tool(options("rooter"))),
        "options.rooter: unknown option; did you mean router?"
    );
}

#[wasm_bindgen_test]
async fn a_malformed_result_object_is_answered_as_an_error_that_says_so() {
    let r = run(malformed_results).await;
    let expected = |why: &str| {
        json!({"is_error": true, "text": format!(
            "the handler returned a malformed result object ({why}); expected {{ isError: boolean, text: string }}"
        )})
    };
    assert_eq!(
        r["snake"],
        expected("it has is_error; the flag is spelled isError")
    );
    assert_eq!(
        r["flag"],
        expected("isError must be true or false, got a string")
    );
    assert_eq!(r["text"], expected("text must be a string, got a number"));
    assert_eq!(r["good"], json!({"is_error": true, "text": "a real error"}));
    assert_eq!(
        r["json"],
        json!({"is_error": false, "text": r#"{"text":"a plain object","n":1}"#}),
        "an object without isError is a JSON result"
    );
}

#[wasm_bindgen_test]
async fn aborting_the_signal_of_a_pending_register_rejects_and_leaves_no_client() {
    let r = run(abort_pending).await;
    assert_eq!(r["outcome"], "AbortError", "{r}");
    assert_eq!(
        r["before"], "gone before",
        "an aborted signal rejects at once"
    );
    assert_eq!(r["clients"], 0, "{r}");
    assert_eq!(r["tools"], json!({"tools": []}), "{r}");
}

#[wasm_bindgen_test]
async fn aborting_the_signal_of_a_registered_client_leaves_and_leave_again_resolves() {
    let r = run(abort_registered).await;
    assert_eq!(r["expiresAt"], json!(null), "a never lifetime: {r}");
    assert_eq!(r["registered"], 1);
    assert_eq!(r["state"], "left");
    assert_eq!(r["again"], "resolved");
}
