//! A value handed once from one part of the shell to a task that awaits it: an op's outcome
//! (`set_tools`, `leave`), the first registration, a runner's answer. The wasm has one thread,
//! so it is an `Rc` and a waker, nothing more.

use crate::js::JsRefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

struct Inner<T> {
    /// `Some(Some(v))` once sent, `Some(None)` once the sender is gone without sending.
    value: Option<Option<T>>,
    waker: Option<Waker>,
}

/// Sends the one value; dropped unsent, the receiver gets `None`.
pub(crate) struct Sender<T>(Rc<JsRefCell<Inner<T>>>);

/// Awaits the one value: `None` if the sender was dropped without sending.
pub(crate) struct Receiver<T>(Rc<JsRefCell<Inner<T>>>);

/// A new sender and its receiver.
pub(crate) fn channel<T>() -> (Sender<T>, Receiver<T>) {
    let inner = Rc::new(JsRefCell::new(Inner {
        value: None,
        waker: None,
    }));
    (Sender(inner.clone()), Receiver(inner))
}

impl<T> Sender<T> {
    pub(crate) fn send(self, value: T) {
        self.settle(Some(value));
    }

    fn settle(&self, value: Option<T>) {
        let waker = {
            let mut inner = self.0.borrow_mut();
            if inner.value.is_some() {
                return;
            }
            inner.value = Some(value);
            inner.waker.take()
        };
        // Woken outside the borrow: the task may run at once and poll the receiver.
        if let Some(w) = waker {
            w.wake();
        }
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        self.settle(None);
    }
}

impl<T: Clone> Receiver<T> {
    /// The value without waiting for it or taking it: `None` while it has not come,
    /// `Some(None)` if the sender went without sending.
    pub(crate) fn peek(&self) -> Option<Option<T>> {
        self.0.borrow().value.clone()
    }
}

impl<T> Future for Receiver<T> {
    type Output = Option<T>;
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        let mut inner = self.0.borrow_mut();
        match inner.value.take() {
            Some(v) => Poll::Ready(v),
            None => {
                inner.waker = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }
}
