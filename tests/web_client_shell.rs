//! Browser tests of the shell's own promises: every error that reaches JS has a `code` a
//! program can switch on, and a client that JS frees leaves and stops streaming.
//! Run with `wasm-pack test --headless --chrome -- --test web_client_shell`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[path = "web_client/support.rs"]
mod support;

use js_sys::Promise;
use support::{run, strings};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
const caught = async (f) => {
  try { await f(); return { resolved: true }; }
  catch (e) { return { isError: e instanceof Error, code: e && e.code, message: String(e && e.message) }; }
};

export async function errorCodes(t) {
  const { a } = t;
  const seen = {};
  seen.badOption = await caught(() => t.register(t.options({ whenHidden: "sometimes" })));
  seen.badTool = await caught(() => t.register(t.options({ tools: [{ name: "no spaces", handler: () => "x" }] })));
  seen.badToken = await caught(() => t.register({ ...t.options({}), token: "tok_not_a_token" }));
  const c = await t.register(t.options({ name: "codes" }));
  seen.badSetTools = await caught(() => c.setTools([{ name: "x" }]));
  await c.leave();
  seen.setToolsAfterLeave = await caught(() => c.setTools([]));
  await a.faults(t.base, t.s, { fail_requests: { path_contains: "/clients", status: 503, count: 1000 } });
  seen.timeout = await caught(() => t.register(t.options({ name: "late", registerTimeoutMs: 1000 })));
  await a.clearFaults(t.base, t.s);
  return seen;
}

// A client JS frees (as the garbage collector does once nothing refers to it) leaves the
// session and aborts its event stream.
export async function freedClientLeaves(t) {
  const { a } = t;
  const original = globalThis.fetch;
  const streams = [];
  globalThis.fetch = (input, init) => {
    const url = typeof input === "string" ? input : input.url;
    if (url.includes("/stream") && init && init.signal) streams.push(init.signal);
    return original(input, init);
  };
  try {
    const c = await t.register(t.options({ name: "freed", tools: [{ name: "echo", handler: () => "x" }] }));
    await a.waitFor("the stream to open", () => streams.length > 0, 3000);
    const before = (await a.clients(t.base, t.s)).map((x) => x.name);
    const modelBefore = (await a.modelTools(t.base, t.s)).tools.map((x) => x.name);
    c.free();
    await a.waitFor("the freed client to leave", async () => (await a.clients(t.base, t.s)).length === 0, 3000);
    await a.waitFor("the stream to be aborted", () => streams.every((s) => s.aborted), 3000);
    const log = await a.events(t.base, t.s);
    return {
      before, modelBefore,
      after: (await a.clients(t.base, t.s)).length,
      modelAfter: (await a.modelTools(t.base, t.s)).tools.length,
      streamsAborted: streams.every((s) => s.aborted),
      left: log.filter((e) => e.type === "client_left").length,
    };
  } finally {
    globalThis.fetch = original;
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = errorCodes)]
    fn error_codes(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = freedClientLeaves)]
    fn freed_client_leaves(t: &JsValue) -> Promise;
}

#[wasm_bindgen_test]
async fn every_error_reaching_js_has_a_code() {
    let r = run(error_codes).await;
    let code = |case: &str| {
        assert_eq!(r[case]["isError"], true, "{case}: {r}");
        r[case]["code"]
            .as_str()
            .unwrap_or_else(|| panic!("{case} has no code: {r}"))
            .to_owned()
    };
    assert_eq!(code("badOption"), "invalid_option");
    assert!(
        r["badOption"]["message"]
            .as_str()
            .unwrap()
            .starts_with("whenHidden"),
        "{r}"
    );
    assert_eq!(code("badTool"), "invalid_option");
    assert_eq!(code("badToken"), "unauthorized");
    assert_eq!(code("badSetTools"), "invalid_option");
    assert_eq!(code("setToolsAfterLeave"), "left");
    assert_eq!(code("timeout"), "register_timeout");
    assert!(
        r["timeout"]["message"].as_str().unwrap().contains("503"),
        "{r}"
    );
}

#[wasm_bindgen_test]
async fn a_client_freed_by_js_leaves_and_stops_streaming() {
    let r = run(freed_client_leaves).await;
    assert_eq!(strings(&r["before"], "before"), ["freed"], "{r}");
    assert_eq!(
        strings(&r["modelBefore"], "modelBefore"),
        ["client__freed__echo"]
    );
    assert_eq!(r["after"], 0, "{r}");
    assert_eq!(r["modelAfter"], 0, "{r}");
    assert_eq!(r["streamsAborted"], true, "{r}");
    assert_eq!(r["left"], 1, "{r}");
}
