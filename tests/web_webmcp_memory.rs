//! Browser test of what a page keeps of clients that left (issue 24): 500 clients register
//! (one tool with a 1,000-character description, `shareStream: false`) and leave, the page
//! drops them, and after a forced GC the JS heap and the bytes the wasm allocator has handed out
//! must stay within [`HEAP_BOUND`] and [`IN_USE_BOUND`] of what they were after a warm-up. `exposeToWebMCP`'s
//! table of clients once kept every client's tool list, handlers included, for the page's life
//! (on main at 3621e8f: 141, 239, 368, 482 and 562 KiB after each 100 clients, about 1.1 KiB a
//! client; after the fix 58, 63, 68, 85 and 71 KiB: what the first clients warm up, then flat).
//! Needs Chromium with `--js-flags=--expose-gc` and `--enable-precise-memory-info`
//! (webdriver.json passes both). Run with
//! `wasm-pack test --headless --chrome -- --test web_webmcp_memory`
//! (`CLIENT_TOOLS_DEVSERVER` names the devserver; `scripts/test` sets it).
#![cfg(target_arch = "wasm32")]

#[path = "web_agents/support.rs"]
mod support;

use js_sys::Promise;
use support::run;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// How much the JS heap may grow over the 500 clients, after GC (the code and caches the first
/// clients warm up included): a quarter of what 500 kept tool lists took.
const HEAP_BOUND: f64 = 160.0 * 1024.0;
/// How much more it may hold after any later hundred than after the first: kept clients grew
/// it by about 105 KiB per 100 (421 KiB); GC's noise here is some tens of KiB.
const HEAP_SLOPE_BOUND: f64 = 96.0 * 1024.0;
/// How many more bytes the wasm allocator may have handed out and not taken back after the 500
/// clients (`client_tools::debug::heap_in_use`, counted in debug builds). A client's engine and
/// shell take several KiB: 500 kept would hold megabytes. (Measured: 0.5 KiB after 500, 1.5 KiB
/// after 1,500, a `Vec`'s capacity. The wasm memory's own size is printed, not bounded: it only
/// grows, by the allocator's peak and fragmentation, 128 to 576 KiB over 100 to 1,500 clients in
/// steps while the bytes in use stayed flat, and it failed a 256 KiB bound on CI at 500.)
const IN_USE_BOUND: f64 = 16.0 * 1024.0;

#[wasm_bindgen(inline_js = r#"
// The heap after collecting everything collectable: a few GCs, with turns in between for the
// finalizers (wasm-bindgen frees a collected Client in one) and what they release.
async function settled(t) {
  for (let i = 0; i < 4; i++) {
    gc();
    await t.a.sleep(30);
  }
  return performance.memory.usedJSHeapSize;
}

export async function churn(t, memory, inUse) {
  if (typeof gc !== "function") throw new Error("gc() is missing: run Chromium with --js-flags=--expose-gc (webdriver.json)");
  if (!performance.memory) throw new Error("performance.memory is missing (Chromium only)");
  // Each client's own 1,000 characters (one shared string would be kept once however often).
  const words = ["row", "table", "order", "customer", "highlight", "screen"];
  const describe = (i) => Array.from({ length: 200 }, (_, k) => words[(i + k) % 6].slice(0, 4)).join(" ").padEnd(1000, ".");
  const once = async (i) => {
    const client = await t.register(t.options({
      name: "churn", shareStream: false,
      tools: [{ name: "highlight_row", description: describe(i), handler: () => `row ${i}` }],
    }));
    await client.leave();
  };
  for (let i = 0; i < 20; i++) await once(i);
  const heap0 = await settled(t);
  const wasm0 = memory.buffer.byteLength, use0 = inUse();
  const uses = [];
  const heap = [];
  for (let i = 1; i <= 500; i++) {
    await once(i);
    if (i % 100 === 0) { heap.push((await settled(t)) - heap0); uses.push(inUse() - use0); }
  }
  const live = await t.a.clients(t.base, t.s);
  return { heap, uses, wasm: memory.buffer.byteLength - wasm0, live: live.length };
}
"#)]
extern "C" {
    fn churn(t: &JsValue, memory: &JsValue, in_use: &JsValue) -> Promise;
}

fn churn_with_memory(t: &JsValue) -> Promise {
    let in_use = Closure::<dyn Fn() -> f64>::new(|| client_tools::debug::heap_in_use() as f64);
    churn(t, &wasm_bindgen::memory(), &in_use.into_js_value())
}

#[wasm_bindgen_test]
async fn clients_that_left_are_not_kept() {
    if support::skipped_outside_chromium(
        "clients_that_left_are_not_kept",
        "typeof gc === 'function' && performance.memory",
        "gc() and performance.memory (--js-flags=--expose-gc)",
    ) {
        return;
    }
    let seen = run(churn_with_memory).await;
    let heap: Vec<f64> = (seen["heap"].as_array().expect("heap figures").iter())
        .map(|v| v.as_f64().unwrap_or(f64::NAN))
        .collect();
    let wasm = seen["wasm"].as_f64().expect("the wasm memory's growth");
    let uses: Vec<f64> = (seen["uses"].as_array().expect("in-use figures").iter())
        .map(|v| v.as_f64().unwrap_or(f64::NAN))
        .collect();
    let kib = |b: f64| format!("{:.0} KiB", b / 1024.0);
    let figures: Vec<String> = heap.iter().map(|&b| kib(b)).collect();
    // Printed for the record (the issue's before/after figures).
    console_log!(
        "JS heap growth after each 100 clients: {}; wasm bytes in use: {}; wasm memory growth: {}",
        figures.join(", "),
        uses.iter().map(|&b| kib(b)).collect::<Vec<_>>().join(", "),
        kib(wasm)
    );
    assert_eq!(seen["live"], 0, "every client left the session");
    assert_eq!(heap.len(), 5, "a figure after each 100 clients");
    let last = heap[4];
    let slope = heap[1..].iter().fold(f64::MIN, |m, &b| m.max(b)) - heap[0];
    assert!(
        slope <= HEAP_SLOPE_BOUND,
        "the JS heap grew by {} from the 100th to the 500th client that left (bound {}): {}",
        kib(slope),
        kib(HEAP_SLOPE_BOUND),
        figures.join(", ")
    );
    assert!(
        last <= HEAP_BOUND,
        "the JS heap grew by {} over 500 clients that left (bound {}): {}",
        kib(last),
        kib(HEAP_BOUND),
        figures.join(", ")
    );
    let held = uses.iter().fold(f64::MIN, |m, &b| m.max(b));
    assert!(
        uses.len() == 5 && held <= IN_USE_BOUND,
        "the wasm allocator holds {} more after clients that left (bound {}): {:?}",
        kib(held),
        kib(IN_USE_BOUND),
        uses
    );
}
