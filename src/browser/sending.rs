//! The engine's requests, sent through one small queue per page: at most [`MAX_IN_FLIGHT`]
//! at a time, so the page's own requests are not starved of the browser's few connections
//! per host (6 over HTTP/1.1), and by urgency: acks first (the server fails a call not acked
//! within 60 s), then registration, pings, tool lists and pending-call reads, then results
//! (5 min). A keep-alive request (the leave on page hide) never waits: the page is going. A
//! request without a whole answer within `requestTimeoutMs` is aborted (`net::send`), so a slot
//! is never held for good.

use super::net;
use crate::engine::{HttpRequest, Input, Urgency};
use std::cell::RefCell;
use std::collections::VecDeque;

/// The most requests of the SDK one page has on the network at once (streams not counted).
pub(crate) const MAX_IN_FLIGHT: usize = 4;

/// The requests waiting for a slot, by urgency, and how many are out.
struct Queue<T> {
    in_flight: usize,
    waiting: [VecDeque<T>; 3],
}

impl<T> Default for Queue<T> {
    fn default() -> Self {
        Queue::new()
    }
}

impl<T> Queue<T> {
    const fn new() -> Self {
        Queue {
            in_flight: 0,
            waiting: [VecDeque::new(), VecDeque::new(), VecDeque::new()],
        }
    }

    /// `item` goes out now (it is handed back) if a slot is free, else waits its turn.
    fn admit(&mut self, item: T, urgency: Urgency) -> Option<T> {
        if self.in_flight < MAX_IN_FLIGHT {
            self.in_flight += 1;
            return Some(item);
        }
        self.waiting[urgency as usize].push_back(item);
        None
    }

    /// A request came back: the most urgent waiting one (oldest first) takes its slot.
    fn release(&mut self) -> Option<T> {
        let next = self.waiting.iter_mut().find_map(VecDeque::pop_front);
        if next.is_none() {
            self.in_flight -= 1;
        }
        next
    }
}

/// One request of a client: `done` gets its answer (or why there is none) as the engine's
/// input; it holds the client strongly, so a request on its way (a leave, say) finishes even if
/// the client is dropped meanwhile.
pub(super) struct Job {
    pub(super) req: HttpRequest,
    /// `requestTimeoutMs`: without a whole answer by then, the request is aborted.
    pub(super) timeout_ms: u32,
    pub(super) done: Box<dyn FnOnce(Input)>,
}

thread_local! {
    // One per page (a wasm instance is single-threaded): every client of the page shares it.
    static QUEUE: RefCell<Queue<Job>> = const { RefCell::new(Queue::new()) };
}

/// Sends `job` now if a slot is free (or it is keep-alive), else queues it by urgency.
pub(super) fn send(job: Job) {
    if job.req.keepalive {
        return crate::js::task::spawn(Box::pin(transmit(job, false)));
    }
    let urgency = job.req.urgency;
    let now = QUEUE.with(|q| q.borrow_mut().admit(job, urgency));
    if let Some(job) = now {
        crate::js::task::spawn(Box::pin(transmit(job, true)));
    }
}

/// A slot came free: the most urgent waiting request takes it.
fn release() {
    let next = QUEUE.with(|q| q.borrow_mut().release());
    if let Some(job) = next {
        crate::js::task::spawn(Box::pin(transmit(job, true)));
    }
}

/// A request's slot, given back when dropped: after its answer, or with the request's future
/// if that is dropped first, so that no slot is lost whatever the request did.
struct Slot(bool);

impl Drop for Slot {
    fn drop(&mut self) {
        if self.0 {
            release();
        }
    }
}

async fn transmit(job: Job, counted: bool) {
    let Job {
        req,
        timeout_ms,
        done,
    } = job;
    let slot = Slot(counted);
    let sent = net::send(&req, timeout_ms).await;
    // The slot is free before the engine reacts, so what it sends next queues fairly.
    drop(slot);
    let input = match sent {
        Ok(a) => Input::Answer {
            request: req.id,
            status: a.status,
            body: a.body,
            retry_after: a.retry_after,
        },
        Err(message) => Input::NetworkError {
            request: req.id,
            message,
        },
    };
    done(input);
}

#[cfg(test)]
mod tests {
    use super::{Queue, Urgency, MAX_IN_FLIGHT};

    /// At most MAX_IN_FLIGHT out; then acks first, results last, each kind oldest first.
    #[test]
    fn acks_overtake_results_and_the_cap_holds() {
        let mut q = Queue::default();
        for i in 0..MAX_IN_FLIGHT {
            assert_eq!(
                q.admit(format!("result {i}"), Urgency::Result),
                Some(format!("result {i}"))
            );
        }
        assert_eq!(q.admit("result 9".to_owned(), Urgency::Result), None);
        assert_eq!(q.admit("ping".to_owned(), Urgency::Control), None);
        assert_eq!(q.admit("ack 1".to_owned(), Urgency::Ack), None);
        assert_eq!(q.admit("ack 2".to_owned(), Urgency::Ack), None);
        let order: Vec<_> = std::iter::from_fn(|| q.release()).collect();
        assert_eq!(order, ["ack 1", "ack 2", "ping", "result 9"]);
        assert_eq!(q.in_flight, MAX_IN_FLIGHT - 1);
        for _ in 1..MAX_IN_FLIGHT {
            assert_eq!(q.release(), None);
        }
        assert_eq!(q.in_flight, 0);
        assert_eq!(
            q.admit("ack 3".to_owned(), Urgency::Ack),
            Some("ack 3".to_owned())
        );
    }
}
