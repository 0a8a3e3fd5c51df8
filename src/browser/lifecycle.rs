//! The page's lifecycle as engine inputs: visibility, page hide/show (back-forward cache),
//! freeze/resume. Listeners are guards that hold the client weakly; in a worker or in Node
//! there is no page and nothing is listened to.

use super::guards::Listener;
use super::host::Host;
use crate::engine::Input;
use std::rc::{Rc, Weak};
use wasm_bindgen::JsCast;

/// Adds the lifecycle listeners; the first input (hidden at start) is returned, not fed, so the
/// engine learns it before it sends anything.
pub(super) fn listen<H: Host>(host: &Rc<H>) -> (Vec<Listener>, Option<Input>) {
    let Some(document) = crate::js::page_document() else {
        return (Vec::new(), None); // a worker: no page lifecycle to follow
    };
    let window = js_sys::global();
    let mut listeners = Vec::new();
    let on =
        |target: &web_sys::EventTarget, kind: &'static str, make: fn(&web_sys::Event) -> Input| {
            let weak: Weak<H> = Rc::downgrade(host);
            Listener::new(target, kind, move |e| {
                if let Some(host) = weak.upgrade() {
                    host.feed(make(&e));
                }
            })
        };
    let doc: &web_sys::EventTarget = document.unchecked_ref();
    let win: &web_sys::EventTarget = window.unchecked_ref();
    listeners.extend(on(doc, "visibilitychange", |_| Input::VisibilityChanged {
        hidden: page_hidden(),
    }));
    listeners.extend(on(win, "pagehide", |e| Input::PageHide {
        persisted: persisted(e),
    }));
    listeners.extend(on(win, "pageshow", |e| Input::PageShow {
        persisted: persisted(e),
    }));
    listeners.extend(on(doc, "freeze", |_| Input::Freeze));
    listeners.extend(on(doc, "resume", |_| Input::Resume));
    let first = crate::js::bool_prop(&document, "hidden")
        .then_some(Input::VisibilityChanged { hidden: true });
    (listeners, first)
}

fn page_hidden() -> bool {
    crate::js::page_document().is_some_and(|d| crate::js::bool_prop(&d, "hidden"))
}

/// A page hide or show event's `persisted` (false for any other event).
fn persisted(e: &web_sys::Event) -> bool {
    crate::js::bool_prop(e, "persisted")
}
