//! The highlight tool: shows the user the element a ref names (a table row, say). The element
//! is scrolled into view and must then be one a person sees (the visibility rule); the SDK
//! outlines it in a closed shadow root that lets pointers through, or the app's `highlight`
//! hook marks it in the app's own way. The SDK's outline goes at the user's next input
//! (pointer, key, wheel), at the next highlight, or after [`SHOWN_MS`]. The model passes only
//! the ref: no CSS, colour or text.

use std::cell::RefCell;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

use super::js::promise::call_hook;
use super::js::{call_method, document, error_result, get, object, ok_result, proto_call, set};
use super::options::Config;
use super::{json_object, refs, visible};

/// How long the SDK's outline stays when the user does nothing.
const SHOWN_MS: f64 = 4000.0;
/// The user's input that clears the outline.
const CLEARED_BY: [&str; 3] = ["pointerdown", "keydown", "wheel"];
/// The outline: the app may set its colour with the CSS property `--client-tools-highlight`.
const DRAWING: &str = "<style>div{position:absolute;inset:-3px;border:3px solid var(--client-tools-highlight,#f59e0b);border-radius:4px}</style><div></div>";

/// The outline's host: fixed over the element, out of the way of pointers and layout.
const HOST_STYLE: &str =
    "position:fixed;margin:0;padding:0;border:0;pointer-events:none;z-index:2147483647";

thread_local! {
    /// The SDK's outline now: its host element and the function that removes it.
    static SHOWN: RefCell<Option<(JsValue, JsValue)>> = const { RefCell::new(None) };
}

/// Removes the SDK's outline, if one is shown, and its listeners.
fn clear_drawing() {
    let Some((host, remove)) = SHOWN.with(|s| s.borrow_mut().take()) else {
        return;
    };
    let _ = call_method(&host, "remove", &[]);
    let w = js_sys::global();
    for kind in CLEARED_BY {
        let _ = call_method(
            &w,
            "removeEventListener",
            &[&kind.into(), &remove, &JsValue::TRUE],
        );
    }
}

/// Outlines `el` with a fixed box over it, in a closed shadow root that pointers pass through.
fn draw(el: &Element) -> Result<(), String> {
    let doc = document()?;
    let host = proto_call("Document", "createElement", &doc, &[&"div".into()])?;
    proto_call(
        "Element",
        "setAttribute",
        &host,
        &[&"style".into(), &HOST_STYLE.into()],
    )?;
    // Where the element is, in CSS pixels as JS writes them (Rust's float formatting would add
    // kilobytes to the .wasm).
    let r = proto_call("Element", "getBoundingClientRect", el, &[])?;
    let style = get(&host, "style");
    for key in ["left", "top", "width", "height"] {
        let px = js_sys::JsString::from("")
            .concat(&get(&r, key))
            .concat(&"px".into());
        set(&style, key, &px);
    }
    let init = object();
    set(&init, "mode", &"closed".into());
    let shadow = proto_call("Element", "attachShadow", &host, &[&init])?;
    set(&shadow, "innerHTML", &DRAWING.into());
    let top = get(&doc, "documentElement");
    proto_call("Node", "appendChild", &top, &[&host])?;
    // `host.remove`, bound: a listener and a timer with no closure of the SDK's.
    let remove = get(&host, "remove")
        .dyn_into::<js_sys::Function>()
        .map_err(|_| "the page has no Element.remove")?
        .bind0(&host);
    let once = object();
    set(&once, "once", &JsValue::TRUE);
    set(&once, "capture", &JsValue::TRUE);
    set(&once, "passive", &JsValue::TRUE);
    let w = js_sys::global();
    for kind in CLEARED_BY {
        let _ = call_method(&w, "addEventListener", &[&kind.into(), &remove, &once]);
    }
    let _ = call_method(&w, "setTimeout", &[&remove, &SHOWN_MS.into()]);
    SHOWN.with(|s| *s.borrow_mut() = Some((host, remove.into())));
    Ok(())
}

/// Runs highlight: `asked` is the model's ref; `clear` takes the highlight away instead.
pub(crate) async fn run(
    config: &Config,
    asked: Option<&str>,
    clear: bool,
) -> Result<JsValue, String> {
    let roots = super::roots::roots(config)?;
    clear_drawing();
    if clear {
        if asked.is_some() {
            return Err("pass either ref or clear, not both".into());
        }
        if let Some(hook) = &config.highlight {
            call_hook(hook, &JsValue::NULL)
                .await
                .map_err(|e| format!("the app's highlight hook failed: {e}"))?;
        }
        return Ok(ok_result(&json_object(&mut [("cleared", true.into())])));
    }
    let Some(asked) = asked else {
        return Err("ref is missing: pass a ref that read_table gave".into());
    };
    let (el, _) = refs::resolve(asked, &roots)?;
    visible::reveal(&el);
    if let Err(why) = visible::control(&el, true) {
        return Ok(error_result(&format!(
            "Not highlighted: the element is not visible on the page: {}.",
            why.describe()
        )));
    }
    match &config.highlight {
        Some(hook) => {
            call_hook(hook, &el)
                .await
                .map_err(|e| format!("the app's highlight hook failed: {e}"))?;
        }
        None => draw(&el)?,
    }
    Ok(ok_result(&json_object(&mut [(
        "highlighted",
        asked.into(),
    )])))
}
