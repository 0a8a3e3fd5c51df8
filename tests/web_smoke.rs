//! The smoke test: in headless Chromium, the SDK registers on a real devserver, answers one
//! call end to end (dispatch → ack → result, seen by the agent's long-poll) and leaves.
//! `scripts/test` starts the devserver and passes its URL in `CLIENT_TOOLS_DEVSERVER`.
#![cfg(target_arch = "wasm32")]

use client_tools::Client;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
export function smokeOptions(base, session) {
  return {
    baseUrl: base, sessionId: session.id, token: session.token, name: "smoke",
    tools: [{
      name: "highlight_row",
      description: "Highlight a row.",
      parameters: { type: "object", properties: { row_id: { type: "string" } }, required: ["row_id"] },
      handler: async (args, ctx) => `Row ${args.row_id} is highlighted (call ${ctx.callId}).`,
    }],
  };
}
export async function smoke(base, Client, session, register) {
  const client = await register(smokeOptions(base, session));
  const get = (p) => fetch(base + p, { headers: { Authorization: `Bearer ${session.token}` } }).then((r) => r.json());
  const post = (p, b) => fetch(base + p, { method: "POST", headers: { Authorization: `Bearer ${session.token}`, "Content-Type": "application/json" }, body: JSON.stringify(b) }).then((r) => r.json());
  const run = (await post(`/v1/sessions/${session.id}/runs`, {})).id;
  const { call_id } = await post(`/v1/sessions/${session.id}/runs/${run}/calls`, { tool: `client__${client.name}__highlight_row`, arguments: { row_id: "42" } });
  const outcome = await get(`/v1/sessions/${session.id}/runs/${run}/calls/${call_id}?wait=10`);
  const seen = { name: client.name, id: client.id, state: client.state };
  await client.leave();
  return { ...seen, outcome, stateAfterLeave: client.state };
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = smoke)]
    fn smoke_js(
        base: &str,
        client: JsValue,
        session: JsValue,
        register: &js_sys::Function,
    ) -> js_sys::Promise;
}

#[wasm_bindgen(module = "/tests/web/agent.js")]
extern "C" {
    #[wasm_bindgen(js_name = newSession)]
    fn new_session(base: &str) -> js_sys::Promise;
}

fn devserver() -> &'static str {
    option_env!("CLIENT_TOOLS_DEVSERVER")
        .expect("CLIENT_TOOLS_DEVSERVER names the devserver (scripts/test sets it)")
}

fn field(v: &JsValue, k: &str) -> JsValue {
    js_sys::Reflect::get(v, &k.into()).unwrap()
}

#[wasm_bindgen_test]
async fn registers_answers_a_call_and_leaves() {
    let base = devserver();
    let session = JsFuture::from(new_session(base)).await.unwrap();
    let register = Closure::<dyn Fn(JsValue) -> js_sys::Promise>::new(Client::register);
    let r = JsFuture::from(smoke_js(
        base,
        JsValue::UNDEFINED,
        session,
        register.as_ref().unchecked_ref(),
    ))
    .await
    .unwrap();
    assert_eq!(field(&r, "name").as_string().as_deref(), Some("smoke"));
    assert_eq!(
        field(&r, "state").as_string().as_deref(),
        Some("registered")
    );
    assert_eq!(
        field(&r, "stateAfterLeave").as_string().as_deref(),
        Some("left")
    );
    assert!(field(&r, "id").as_string().unwrap().starts_with("cli_"));
    let outcome = field(&r, "outcome");
    assert_eq!(
        field(&outcome, "state").as_string().as_deref(),
        Some("succeeded"),
        "{outcome:?}"
    );
    assert_eq!(field(&outcome, "is_error").as_bool(), Some(false));
    let text = field(&outcome, "text").as_string().unwrap();
    assert!(text.starts_with("Row 42 is highlighted (call "), "{text}");
}

/// The check every browser test's support runs (`tests/web/borrows.rs`) can fail: a borrow of
/// the SDK's state held across a call into JS is seen, with where it was taken, once.
#[wasm_bindgen_test]
fn the_borrow_check_sees_a_borrow_held_across_a_call_into_js() {
    assert!(client_tools::debug::borrows_held_across_js().is_empty());
    let f = js_sys::Function::new_no_args("return 1");
    client_tools::debug::hold_a_borrow_across(&f);
    let held = client_tools::debug::borrows_held_across_js();
    assert_eq!(held.len(), 1, "{held:?}");
    assert!(
        held[0].starts_with("a function call while borrowed at src/js/cell.rs:"),
        "{}",
        held[0]
    );
    assert!(client_tools::debug::borrows_held_across_js().is_empty());
}
