//! The engine's requests, sent through one small queue per page: at most [`MAX_IN_FLIGHT`]
//! at a time, so the page's own requests are not starved of the browser's few connections
//! per host (6 over HTTP/1.1), and by urgency: acks first (the server fails a call not acked
//! within 60 s), then registration, pings, tool lists and pending-call reads, then results
//! (5 min). A keep-alive request (the leave on page hide) never waits: the page is going.

use super::driver::Shared;
use super::net;
use crate::engine::{HttpRequest, Input};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen_futures::spawn_local;

/// The most requests of the SDK one page has on the network at once (streams not counted).
pub(crate) const MAX_IN_FLIGHT: usize = 4;

/// How urgent a request is; a lower value goes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Urgency {
    Ack = 0,
    Control = 1,
    Result = 2,
}

fn urgency(req: &HttpRequest) -> Urgency {
    if req.url.ends_with("/ack") {
        Urgency::Ack
    } else if req.url.ends_with("/result") {
        Urgency::Result
    } else {
        Urgency::Control
    }
}

#[derive(Default)]
struct Queue {
    in_flight: usize,
    waiting: [VecDeque<(Rc<Shared>, HttpRequest)>; 3],
}

thread_local! {
    // One per page (a wasm instance is single-threaded): every client of the page shares it.
    static QUEUE: RefCell<Queue> = RefCell::default();
}

/// Sends `req` now if a slot is free (or it is keep-alive), else queues it by urgency. The
/// answer is fed to `shared`'s engine, which is held strongly: a request on its way (a leave,
/// say) finishes even if the client is dropped meanwhile.
pub(super) fn send(shared: Rc<Shared>, req: HttpRequest) {
    if req.keepalive {
        return spawn_local(transmit(shared, req, false));
    }
    let now = QUEUE.with(|q| {
        let mut q = q.borrow_mut();
        if q.in_flight < MAX_IN_FLIGHT {
            q.in_flight += 1;
            return Some((shared, req));
        }
        let class = urgency(&req) as usize;
        q.waiting[class].push_back((shared, req));
        None
    });
    if let Some((shared, req)) = now {
        spawn_local(transmit(shared, req, true));
    }
}

/// A slot came free: the most urgent waiting request takes it.
fn release() {
    let next = QUEUE.with(|q| {
        let mut q = q.borrow_mut();
        let next = q.waiting.iter_mut().find_map(VecDeque::pop_front);
        if next.is_none() {
            q.in_flight -= 1;
        }
        next
    });
    if let Some((shared, req)) = next {
        spawn_local(transmit(shared, req, true));
    }
}

async fn transmit(shared: Rc<Shared>, req: HttpRequest, counted: bool) {
    let what = || format!("{} {}", req.method.as_str(), req.url);
    let sent = net::send(&req).await;
    // The slot is free before the engine reacts, so what it sends next queues fairly.
    if counted {
        release();
    }
    let input = match sent {
        Ok(a) => {
            if a.status >= 400 {
                shared.note_error(format!("{} answered {}", what(), a.status));
            }
            Input::Answer {
                request: req.id,
                status: a.status,
                body: a.body,
                retry_after_ms: a.retry_after_ms,
            }
        }
        Err(message) => {
            shared.note_error(format!("{} failed: {message}", what()));
            Input::NetworkError {
                request: req.id,
                message,
            }
        }
    };
    shared.feed(input);
}
