//! Browser tests of a session that outlives its token (issue 29): `token` given as a function,
//! against the devserver rotating the session's token (`POST …/token`, the old token refused
//! with 401 from then on). Run with `wasm-pack test --headless --chrome -- --test
//! web_client_token` (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[path = "web_client/support.rs"]
#[allow(dead_code)] // `strings` is not used here
mod support;

use js_sys::Promise;
use support::run;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
const echo = { name: "echo", description: "Echo.", handler: (args) => `echo ${args.text}` };
const ttl5 = { type: "ttl", data: { seconds: 5 } };

// The app's backend, as the page sees it: hands out the session's current token; the agent's
// side rotates it. `give` may be replaced to make the backend fail or lag behind.
function backend(t) {
  const b = { current: t.s.token, asked: 0, held: null };
  b.give = async () => b.current;
  // While a rotation is under way (the server has the new token, the backend not yet), the
  // function waits for it, as a backend that rotates its own token answers once it has it: a
  // request refused in that gap does not fetch the old token again.
  b.token = async () => {
    b.asked += 1;
    if (b.held) await b.held;
    return b.give();
  };
  b.rotate = async () => {
    let release;
    b.held = new Promise((r) => (release = r));
    try {
      b.current = (await t.a.api(t.base, "POST", `/v1/sessions/${t.s.id}/token`, b.current, {})).token;
    } finally {
      b.held = null;
      release();
    }
  };
  return b;
}

export async function threeRotations(t) {
  const { a } = t;
  const b = backend(t);
  const w = a.watched(t.options({ name: "rot", token: b.token, lifetime: ttl5, tools: [echo] }));
  const c = await t.register(w.options);
  const seen = { askedAtRegister: b.asked, rounds: [] };
  for (let i = 1; i <= 3; i++) {
    await b.rotate();
    // The old token is refused now: the next ping (every ~1.7 s) or ack is answered 401, the
    // client asks the function once and goes on with the fresh token.
    await a.waitFor(`the token function asked again (rotation ${i})`, () => b.asked >= i + 1, 8000);
    const agent = { ...t.s, token: b.current };
    const run = await a.startRun(t.base, agent);
    const call = await a.callTool(t.base, agent, run, `client__${c.name}__echo`, { text: `r${i}` });
    const outcome = await a.waitCall(t.base, agent, run, call, 10);
    seen.rounds.push({ asked: b.asked, state: c.state, outcome });
  }
  seen.fatal = w.statuses.filter((s) => s.type === "error" && s.fatal);
  seen.clients = (await a.clients(t.base, { ...t.s, token: b.current })).map((x) => x.id);
  seen.id = c.id;
  await c.leave();
  return seen;
}

export async function refusedFreshToken(t) {
  const { a } = t;
  const b = backend(t);
  const stale = b.current;
  const w = a.watched(t.options({ name: "stale", token: b.token, lifetime: ttl5, tools: [echo] }));
  const c = await t.register(w.options);
  // The backend goes on handing out the token that was just rotated away.
  b.give = async () => stale;
  await b.rotate();
  await a.waitFor("the client stops", () => c.state === "failed", 10000);
  return { asked: b.asked, state: c.state, fatal: w.statuses.filter((s) => s.type === "error" && s.fatal) };
}

export async function failingFunction(t) {
  const { a } = t;
  const b = backend(t);
  const w = a.watched(t.options({ name: "fails", token: b.token, lifetime: ttl5, tools: [echo] }));
  const c = await t.register(w.options);
  b.give = async () => { throw new Error("the backend answered 503"); };
  await b.rotate();
  await a.waitFor("the client stops", () => c.state === "failed", 10000);
  const seen = { state: c.state, fatal: w.statuses.filter((s) => s.type === "error" && s.fatal) };
  // A function that fails at once: register rejects, nothing is sent.
  const first = await t.register(t.options({ token: () => { throw new Error("no session yet"); } }))
    .then(() => null, (e) => ({ code: e.code, message: e.message }));
  const notString = await t.register(t.options({ token: async () => 42 }))
    .then(() => null, (e) => ({ code: e.code, message: e.message }));
  return { ...seen, first, notString };
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = threeRotations)]
    fn three_rotations(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = refusedFreshToken)]
    fn refused_fresh_token(t: &JsValue) -> Promise;
    #[wasm_bindgen(js_name = failingFunction)]
    fn failing_function(t: &JsValue) -> Promise;
}

#[wasm_bindgen_test]
async fn a_client_with_a_token_function_answers_calls_across_three_rotations() {
    let r = run(three_rotations).await;
    assert_eq!(
        r["askedAtRegister"], 1,
        "the function gives the first token: {r}"
    );
    let rounds = r["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 3, "{r}");
    for (i, round) in rounds.iter().enumerate() {
        assert_eq!(round["state"], "registered", "{r}");
        assert_eq!(round["outcome"]["is_error"], false, "{r}");
        assert_eq!(
            round["outcome"]["text"],
            format!("echo r{}", i + 1),
            "round {}: {r}",
            i + 1
        );
        // Once per rotation: the refusals that came while it was asked waited for its token.
        assert_eq!(round["asked"], i as u64 + 2, "{r}");
    }
    assert_eq!(r["fatal"].as_array().unwrap().len(), 0, "{r}");
    // The same registration all along: a refused token is not a lapse.
    assert_eq!(r["clients"], serde_json::json!([r["id"].clone()]), "{r}");
}

#[wasm_bindgen_test]
async fn a_fresh_token_the_server_refuses_too_stops_the_client_saying_so() {
    let r = run(refused_fresh_token).await;
    assert_eq!(r["state"], "failed", "{r}");
    assert_eq!(r["asked"], 2, "asked once after the 401, never again: {r}");
    let fatal = &r["fatal"][0];
    assert_eq!(fatal["kind"], "unauthorized", "{r}");
    assert!(
        fatal["message"]
            .as_str()
            .unwrap()
            .contains("just refreshed"),
        "{r}"
    );
}

#[wasm_bindgen_test]
async fn a_token_function_that_fails_stops_the_client_or_rejects_register() {
    let r = run(failing_function).await;
    assert_eq!(r["state"], "failed", "{r}");
    let message = r["fatal"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("token function failed") && message.contains("503"),
        "{r}"
    );
    assert_eq!(r["first"]["code"], "unauthorized", "{r}");
    assert!(
        r["first"]["message"]
            .as_str()
            .unwrap()
            .contains("no session yet"),
        "{r}"
    );
    assert_eq!(r["notString"]["code"], "unauthorized", "{r}");
    assert!(
        r["notString"]["message"]
            .as_str()
            .unwrap()
            .contains("not a string"),
        "{r}"
    );
}
