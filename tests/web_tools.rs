//! Browser tests of the page tools (src/tools/): run with
//! `wasm-pack test --headless --chrome -- --test web_tools`.
//! Every test builds its fixture in an appended `<div>` and removes it.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "web_tools/support.rs"]
mod support;

#[path = "web_tools/bad_inputs.rs"]
mod bad_inputs;
#[path = "web_tools/click.rs"]
mod click;
#[path = "web_tools/describe.rs"]
mod describe;
#[path = "web_tools/fill.rs"]
mod fill;
#[path = "web_tools/leaks.rs"]
mod leaks;
#[path = "web_tools/navigate.rs"]
mod navigate;
#[path = "web_tools/page.rs"]
mod page;
#[path = "web_tools/refs.rs"]
mod refs;
#[path = "web_tools/roots.rs"]
mod roots;
#[path = "web_tools/submit.rs"]
mod submit;
#[path = "web_tools/table.rs"]
mod table;
#[path = "web_tools/visibility.rs"]
mod visibility;
