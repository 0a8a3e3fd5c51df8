//! [`JsRefCell`], the cell every piece of the SDK's state lives in, and the rule it checks: no
//! borrow is held while calling into JS. A JS call can run app code (a handler, a hook, a
//! Proxy's trap, a getter, an abort listener) that calls back into the SDK, which then finds
//! its state borrowed ("already borrowed" is a panic, and a panic kills the module).
//!
//! In release builds a `JsRefCell` is a `RefCell` and nothing more. In debug builds (every
//! `cargo test` and `wasm-pack test`) each borrow is counted while it lives, with the place it
//! was taken, and the parent module's catching calls into JS ([`entering_js`]) note every
//! borrow that is live at that moment. Tests read those notes through
//! `client_tools::debug::borrows_held_across_js()` and fail when there is one
//! (`tests/web_borrows.rs`).

use std::cell::{Ref, RefCell, RefMut};
use std::ops::{Deref, DerefMut};

/// A `RefCell` whose borrows the JS plumbing checks in debug builds (see the module's docs).
/// Same methods as `RefCell`, where the SDK uses them.
pub(crate) struct JsRefCell<T> {
    inner: RefCell<T>,
}

impl<T> JsRefCell<T> {
    pub(crate) const fn new(value: T) -> Self {
        JsRefCell {
            inner: RefCell::new(value),
        }
    }

    #[track_caller]
    pub(crate) fn borrow(&self) -> JsRef<'_, T> {
        JsRef {
            inner: self.inner.borrow(),
            _live: Live::new(),
        }
    }

    #[track_caller]
    pub(crate) fn borrow_mut(&self) -> JsRefMut<'_, T> {
        JsRefMut {
            inner: self.inner.borrow_mut(),
            _live: Live::new(),
        }
    }

    /// Puts `value` in and answers the old value, the borrow ended, for the caller to drop
    /// (`*cell.borrow_mut() = value` drops the old one inside the borrow, and a guard's drop
    /// may call into JS).
    pub(crate) fn replace(&self, value: T) -> T {
        self.inner.replace(value)
    }

    /// The value, the cell consumed.
    pub(crate) fn into_inner(self) -> T {
        self.inner.into_inner()
    }
}

impl<T: Default> JsRefCell<T> {
    /// Takes the value out, leaving `T::default()`; the borrow ends before this returns, so
    /// `if let Some(v) = cell.take() { .. }` may call into JS with `v` (an `if let` on
    /// `cell.borrow_mut().take()` would hold the borrow through its body).
    pub(crate) fn take(&self) -> T {
        self.inner.take()
    }
}

impl<T: Default> Default for JsRefCell<T> {
    fn default() -> Self {
        JsRefCell::new(T::default())
    }
}

/// A shared borrow of a [`JsRefCell`].
pub(crate) struct JsRef<'a, T> {
    inner: Ref<'a, T>,
    _live: Live,
}

/// A mutable borrow of a [`JsRefCell`].
pub(crate) struct JsRefMut<'a, T> {
    inner: RefMut<'a, T>,
    _live: Live,
}

impl<T> Deref for JsRef<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T> Deref for JsRefMut<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T> DerefMut for JsRefMut<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.inner
    }
}

#[cfg(debug_assertions)]
mod tracking {
    use std::cell::{Cell, RefCell};
    use std::panic::Location;

    thread_local! {
        /// The live borrows: an id and where each was taken.
        static LIVE: RefCell<Vec<(u64, &'static Location<'static>)>> = const { RefCell::new(Vec::new()) };
        static NEXT: Cell<u64> = const { Cell::new(0) };
        /// One line per call into JS made while a borrow was live.
        pub(super) static HELD: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    }

    /// One live borrow, counted from its making to its drop.
    pub(crate) struct Live(u64);

    impl Live {
        #[track_caller]
        pub(crate) fn new() -> Live {
            let at = Location::caller(); // here: a closure would answer its own place
            let id = NEXT.with(|n| n.replace(n.get() + 1));
            LIVE.with(|l| l.borrow_mut().push((id, at)));
            Live(id)
        }
    }

    impl Drop for Live {
        fn drop(&mut self) {
            LIVE.with(|l| l.borrow_mut().retain(|(id, _)| *id != self.0));
        }
    }

    pub(crate) fn entering_js(what: &str) {
        let live: Vec<String> = LIVE.with(|l| {
            (l.borrow().iter())
                .map(|(_, at)| format!("{}:{}", at.file(), at.line()))
                .collect()
        });
        if !live.is_empty() {
            let line = format!("{what} while borrowed at {}", live.join(", "));
            HELD.with(|h| h.borrow_mut().push(line));
        }
    }
}

#[cfg(debug_assertions)]
use tracking::Live;

/// Nothing to count in release builds.
#[cfg(not(debug_assertions))]
struct Live;

#[cfg(not(debug_assertions))]
impl Live {
    fn new() -> Live {
        Live
    }
}

/// Called by the parent module just before each call into JS that can run app code: in debug
/// builds, notes the borrows live at that moment; nothing in release builds.
#[inline]
pub(crate) fn entering_js(what: &str) {
    #[cfg(debug_assertions)]
    tracking::entering_js(what);
    #[cfg(not(debug_assertions))]
    let _ = what;
}

/// The calls into JS made while a `JsRefCell` borrow was live since the last call, each with
/// where the borrows were taken; empties the list. Debug builds only.
#[cfg(debug_assertions)]
pub fn borrows_held_across_js() -> Vec<String> {
    tracking::HELD.with(|h| std::mem::take(&mut *h.borrow_mut()))
}

/// Holds a borrow of a `JsRefCell` while calling `f`: the one deliberate break of the rule, for
/// the test that shows the check sees one. Debug builds only.
#[cfg(debug_assertions)]
pub fn hold_a_borrow_across(f: &wasm_bindgen::JsValue) {
    let cell = JsRefCell::new(0u8);
    let _held = cell.borrow_mut();
    let _ = super::call(f, &[]);
}
