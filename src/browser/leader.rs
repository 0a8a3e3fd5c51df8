//! Who leads the tabs that share a stream (`share`): the holder of a Web Lock
//! (`navigator.locks`), which the browser frees when a tab closes or is discarded; where there
//! are no Web Locks (not a secure context), the tab that claimed leadership over the
//! `BroadcastChannel` after hearing no leader: a leader beats every second and answers every
//! `hello` at once (message events are not throttled in hidden tabs, timers are), a waiting tab
//! that heard nothing for [`SILENT_MS`] probes with `hello` and claims if [`PROBE_MS`] pass
//! unanswered, and of two leaders the one with the greater tab id steps down.

use super::guards::{now, Abort};
use crate::js::JsRefCell;
use js_sys::{Function, Object, Promise};
use std::cell::Cell;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;

/// A waiting tab that heard no leader this long probes for one.
pub(super) const SILENT_MS: u64 = 2_000;
/// An unanswered probe this old makes the waiting tab the leader.
pub(super) const PROBE_MS: u64 = 500;
/// How often a leader without Web Locks says it is there.
const BEAT_MS: u32 = 1_000;

enum Lock {
    /// Not asked for: the engine wants no stream.
    Idle,
    /// In the Web Lock's queue; dropping the guard leaves the queue.
    Asked(Abort),
    /// No Web Locks: listening for a leader, ready to claim.
    Waiting,
    /// Leading, until this function (the Web Lock callback's promise's resolve) is called;
    /// `None` without Web Locks.
    Held(Option<Function>),
}

/// `navigator.locks`, if this is a window that has it.
fn lock_manager() -> Option<JsValue> {
    crate::js::page_document()?;
    let locks = crate::js::get(&crate::js::get(&js_sys::global(), "navigator"), "locks");
    (!locks.is_undefined() && !locks.is_null()).then_some(locks)
}

/// This tab's place in the election for one stream.
pub(super) struct Leadership {
    name: String,
    lock: JsRefCell<Lock>,
    /// Without Web Locks: the waiting tab's check, or the leader's beat.
    ticker: JsRefCell<Option<super::guards::Timer>>,
    /// When a leader was last heard (ms).
    heard: Cell<u64>,
    /// When this waiting tab probed for a leader, if it did since it last heard one.
    probed: Cell<Option<u64>>,
}

impl Leadership {
    pub(super) fn new(name: String) -> Leadership {
        Leadership {
            name,
            lock: JsRefCell::new(Lock::Idle),
            ticker: JsRefCell::default(),
            heard: Cell::new(0),
            probed: Cell::new(None),
        }
    }

    pub(super) fn held(&self) -> bool {
        matches!(*self.lock.borrow(), Lock::Held(_))
    }

    /// Whether leadership goes by heartbeats (no Web Locks) and this tab leads.
    pub(super) fn leads_by_beats(&self) -> bool {
        matches!(*self.lock.borrow(), Lock::Held(None))
    }

    /// A leader spoke (a beat, an open, events): a waiting tab does not claim.
    pub(super) fn heard(&self) {
        self.heard.set(now().as_ms());
        self.probed.set(None);
    }

    /// Joins the election, once. With Web Locks, `granted` is called with the lock's release
    /// when this tab is to lead (it must call the release if it cannot lead); without,
    /// `tick` is called every [`PROBE_MS`] (it checks [`Self::should_claim`]).
    pub(super) fn ask(&self, tick: Box<dyn FnMut()>, granted: Box<dyn Fn(Function)>) {
        if !matches!(*self.lock.borrow(), Lock::Idle) {
            return;
        }
        match lock_manager() {
            Some(locks) => self.ask_lock(&locks, granted),
            None => {
                *self.lock.borrow_mut() = Lock::Waiting;
                *self.ticker.borrow_mut() = Some(super::guards::interval(PROBE_MS as u32, tick));
            }
        }
    }

    fn ask_lock(&self, locks: &JsValue, granted: Box<dyn Fn(Function)>) {
        let Some(abort) = Abort::new("no stream is wanted") else {
            return;
        };
        let options = Object::new();
        crate::js::set(&options, "signal", &abort.signal().into());
        // The SDK's one closure shape (`js::Callback`); JS owns it, and frees it once collected.
        let granted = Closure::<crate::js::Callback>::new(move |_lock, _| -> JsValue {
            let mut release = None;
            let held = Promise::new(&mut |resolve, _| release = Some(resolve));
            if let Some(release) = release {
                granted(release);
            }
            held.into()
        })
        .into_js_value();
        let args = [&self.name.as_str().into(), &options.into(), &granted];
        let Ok(promise) = crate::js::call_method(locks, "request", &args) else {
            return;
        };
        // Rejects with an AbortError when the request is withdrawn: expected, not reported.
        crate::js::task::spawn(Box::pin(async move {
            let _ = crate::js::task::settle(&promise).await;
        }));
        *self.lock.borrow_mut() = Lock::Asked(abort);
    }

    /// Without Web Locks, a waiting tab's tick: `true` when it should claim leadership now;
    /// `probe` is called when it should ask whether a leader is there.
    pub(super) fn should_claim(&self, probe: impl FnOnce()) -> bool {
        if !matches!(*self.lock.borrow(), Lock::Waiting) {
            return false;
        }
        let now = now().as_ms();
        if now.saturating_sub(self.heard.get()) < SILENT_MS {
            return false;
        }
        match self.probed.get() {
            None => {
                self.probed.set(Some(now));
                probe();
                false
            }
            Some(at) => now.saturating_sub(at) >= PROBE_MS,
        }
    }

    /// This tab leads now; without Web Locks it beats (`beat` posts one) until it lets go.
    pub(super) fn take(&self, release: Option<Function>, beat: impl Fn() + 'static) {
        if let Lock::Asked(abort) = self.lock.replace(Lock::Idle) {
            abort.forget();
        }
        let by_beats = release.is_none();
        *self.lock.borrow_mut() = Lock::Held(release);
        let ticker = by_beats.then(|| super::guards::interval(BEAT_MS, Box::new(beat)));
        drop(self.ticker.replace(ticker));
    }

    /// Gives the lead back, or leaves the election.
    pub(super) fn let_go(&self) {
        // Each taken out of its cell before it is dropped or called: a timer's drop and a
        // lock's release call into JS.
        drop(self.ticker.take());
        self.probed.set(None);
        match self.lock.replace(Lock::Idle) {
            Lock::Held(Some(release)) => drop(crate::js::call(&release, &[])),
            Lock::Asked(abort) => drop(abort),
            Lock::Held(None) | Lock::Waiting | Lock::Idle => {}
        }
    }
}

impl Drop for Leadership {
    fn drop(&mut self) {
        self.let_go();
    }
}
