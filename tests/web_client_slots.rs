//! Browser test of the page's request slots: results the server accepts and never answers
//! hold at most two of the four (one slot is kept for registering and pinging, one for acks and
//! control requests: src/browser/sending.rs, issue 39), so an ack (and a ping, and every other
//! control request) still goes out at once (issue 22, item 7).
//! Run with `wasm-pack test --headless --chrome -- --test web_client_slots`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[allow(dead_code)] // `strings` is not used here
#[path = "web_client/support.rs"]
mod support;

use js_sys::Promise;
use support::run;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
// Every result post hangs (accepted, never answered: it ends only when the SDK aborts it, at
// `requestTimeoutMs`); acks are sent to the devserver and their answers recorded. Four calls
// whose results hang, then a fifth: how long until its ack is answered.
export async function ackWhileResultsHang(t) {
  const { a } = t;
  const original = globalThis.fetch;
  const hung = [];
  const acks = [];
  globalThis.fetch = (input, init) => {
    const url = typeof input === "string" ? input : input.url;
    if (url.endsWith("/result")) {
      hung.push(url);
      return new Promise((_, reject) => {
        const signal = init && init.signal;
        if (signal) signal.addEventListener("abort", () => reject(signal.reason));
      });
    }
    const answer = original(input, init);
    if (url.endsWith("/ack")) answer.then((r) => acks.push({ url, status: r.status, at: Date.now() }), () => {});
    return answer;
  };
  let c;
  try {
    c = await t.register(t.options({ name: "slots", requestTimeoutMs: 20000,
      tools: [{ name: "quick", handler: () => "done" }] }));
    const run = await a.startRun(t.base, t.s);
    const tool = `client__${c.name}__quick`;
    for (let i = 0; i < 4; i++) await a.callTool(t.base, t.s, run, tool, {});
    await a.waitFor("four acks", () => acks.length === 4, 5000);
    await a.waitFor("results to hang", () => hung.length >= 2, 5000);
    // Every result that will go out has gone out.
    await a.sleep(300);
    const hanging = hung.length;
    const dispatched = Date.now();
    const fifth = await a.callTool(t.base, t.s, run, tool, {});
    let ackedAfterMs = null;
    try {
      await a.waitFor("the fifth ack", () => acks.some((x) => x.url.includes(`/calls/${fifth}/ack`)), 5000);
      ackedAfterMs = acks.find((x) => x.url.includes(`/calls/${fifth}/ack`)).at - dispatched;
    } catch {}
    return { hanging, ackedAfterMs, fifthStatus: acks.find((x) => x.url.includes(`/calls/${fifth}/ack`))?.status ?? null };
  } finally {
    globalThis.fetch = original;
    // The hung posts are aborted by the leave; do not wait long on it.
    if (c) await Promise.race([c.leave().catch(() => {}), a.sleep(3000)]);
  }
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = ackWhileResultsHang)]
    fn ack_while_results_hang(t: &JsValue) -> Promise;
}

#[wasm_bindgen_test]
async fn an_ack_goes_out_at_once_while_results_hang() {
    let r = run(ack_while_results_hang).await;
    let ms = r["ackedAfterMs"]
        .as_u64()
        .unwrap_or_else(|| panic!("the fifth call was not acked within 5 s: {r}"));
    assert!(ms < 2000, "acked {ms} ms after its dispatch: {r}");
    assert_eq!(r["fifthStatus"], 200, "{r}");
    // Two of the four results hold slots; the third and fourth wait for them.
    assert_eq!(r["hanging"], 2, "{r}");
}
