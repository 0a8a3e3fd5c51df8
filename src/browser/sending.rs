//! The engine's requests, sent through one small queue per page: at most [`MAX_IN_FLIGHT`]
//! at a time, so the page's own requests are not starved of the browser's few connections
//! per host (6 over HTTP/1.1), and by urgency: acks first (the server fails a call not acked
//! within 60 s), then registration, pings, tool lists and pending-call reads, then results
//! (5 min). Results hold at most [`MAX_RESULTS_IN_FLIGHT`] of the slots: one is always left
//! for acks, pings and the other control requests, so results the server accepts and never
//! answers (held for `requestTimeoutMs`) never keep an ack or a ping waiting; those wait only
//! for each other. A keep-alive request (the leave on page hide) never waits: the page is
//! going. A request without a whole answer within `requestTimeoutMs` is aborted (`net::send`),
//! so a slot is never held for good.

use super::net;
use crate::engine::{HttpRequest, Input, Urgency};
use crate::js::JsRefCell;
use std::collections::VecDeque;

/// The most requests of the SDK one page has on the network at once (streams not counted).
pub(crate) const MAX_IN_FLIGHT: usize = 4;
/// The most results among them: the other slot is kept for acks and control requests.
pub(crate) const MAX_RESULTS_IN_FLIGHT: usize = MAX_IN_FLIGHT - 1;

/// The requests waiting for a slot, by urgency, and how many are out (and how many of those
/// are results).
struct Queue<T> {
    in_flight: usize,
    results: usize,
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
            results: 0,
            waiting: [VecDeque::new(), VecDeque::new(), VecDeque::new()],
        }
    }

    /// Whether a request of `urgency` may take a free slot now.
    fn fits(&self, urgency: Urgency) -> bool {
        self.in_flight < MAX_IN_FLIGHT
            && (urgency != Urgency::Result || self.results < MAX_RESULTS_IN_FLIGHT)
    }

    fn take_slot(&mut self, urgency: Urgency) {
        self.in_flight += 1;
        self.results += usize::from(urgency == Urgency::Result);
    }

    /// `item` goes out now (it is handed back) if a slot is free for it, else waits its turn.
    fn admit(&mut self, item: T, urgency: Urgency) -> Option<T> {
        if self.fits(urgency) {
            self.take_slot(urgency);
            return Some(item);
        }
        self.waiting[urgency as usize].push_back(item);
        None
    }

    /// A request of `urgency` came back: the most urgent waiting one that fits (oldest first)
    /// takes its slot.
    fn release(&mut self, urgency: Urgency) -> Option<T> {
        self.in_flight -= 1;
        self.results -= usize::from(urgency == Urgency::Result);
        for kind in [Urgency::Ack, Urgency::Control, Urgency::Result] {
            if !self.fits(kind) {
                continue;
            }
            if let Some(next) = self.waiting[kind as usize].pop_front() {
                self.take_slot(kind);
                return Some(next);
            }
        }
        None
    }
}

/// One request of a client: `done` gets its answer (or why there is none) as the engine's
/// input; it holds the client strongly, so a request on its way (a leave, say) finishes even if
/// the client is dropped meanwhile.
pub(super) struct Job {
    pub(super) req: HttpRequest,
    /// `requestTimeoutMs`: without a whole answer by then, the request is aborted.
    pub(super) timeout_ms: u32,
    /// The app's `fetch` option, used instead of the global `fetch`.
    pub(super) fetch: Option<js_sys::Function>,
    pub(super) done: Box<dyn FnOnce(Input)>,
}

thread_local! {
    // One per page (a wasm instance is single-threaded): every client of the page shares it.
    static QUEUE: JsRefCell<Queue<Job>> = const { JsRefCell::new(Queue::new()) };
}

/// Sends `job` now if a slot is free (or it is keep-alive), else queues it by urgency.
pub(super) fn send(job: Job) {
    if job.req.keepalive {
        return crate::js::promise::spawn(Box::pin(transmit(job, false)));
    }
    let urgency = job.req.urgency;
    let now = QUEUE.with(|q| q.borrow_mut().admit(job, urgency));
    if let Some(job) = now {
        crate::js::promise::spawn(Box::pin(transmit(job, true)));
    }
}

/// The slot of a request of `urgency` came free: the most urgent waiting request that fits
/// takes it.
fn release(urgency: Urgency) {
    let next = QUEUE.with(|q| q.borrow_mut().release(urgency));
    if let Some(job) = next {
        crate::js::promise::spawn(Box::pin(transmit(job, true)));
    }
}

/// A request's slot, given back when dropped: after its answer, or with the request's future
/// if that is dropped first, so that no slot is lost whatever the request did.
struct Slot(Option<Urgency>);

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(urgency) = self.0 {
            release(urgency);
        }
    }
}

async fn transmit(job: Job, counted: bool) {
    let Job {
        req,
        timeout_ms,
        fetch,
        done,
    } = job;
    let slot = Slot(counted.then_some(req.urgency));
    let sent = net::send(fetch.as_ref(), &req, timeout_ms).await;
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
    use super::{Queue, Urgency, MAX_IN_FLIGHT, MAX_RESULTS_IN_FLIGHT};

    /// At most MAX_IN_FLIGHT out, at most MAX_RESULTS_IN_FLIGHT of them results; then acks
    /// first, results last, each kind oldest first.
    #[test]
    fn acks_overtake_results_and_the_caps_hold() {
        let mut q = Queue::default();
        for i in 0..MAX_RESULTS_IN_FLIGHT {
            assert_eq!(
                q.admit(format!("result {i}"), Urgency::Result),
                Some(format!("result {i}"))
            );
        }
        // The last slot is not a result's.
        assert_eq!(q.admit("result 8".to_owned(), Urgency::Result), None);
        assert_eq!(q.admit("result 9".to_owned(), Urgency::Result), None);
        assert_eq!(
            q.admit("ack 0".to_owned(), Urgency::Ack),
            Some("ack 0".to_owned())
        );
        assert_eq!(q.in_flight, MAX_IN_FLIGHT);
        assert_eq!(q.admit("ping".to_owned(), Urgency::Control), None);
        assert_eq!(q.admit("ack 1".to_owned(), Urgency::Ack), None);
        assert_eq!(q.admit("ack 2".to_owned(), Urgency::Ack), None);
        // Acks and the ping go out through the one slot they have while the results hang.
        assert_eq!(q.release(Urgency::Ack), Some("ack 1".to_owned()));
        assert_eq!(q.release(Urgency::Ack), Some("ack 2".to_owned()));
        assert_eq!(q.release(Urgency::Ack), Some("ping".to_owned()));
        // That slot free, a result still may not take it.
        assert_eq!(q.release(Urgency::Control), None);
        assert_eq!(q.in_flight, MAX_RESULTS_IN_FLIGHT);
        // A result comes back: the next result takes its slot.
        assert_eq!(q.release(Urgency::Result), Some("result 8".to_owned()));
        assert_eq!(q.release(Urgency::Result), Some("result 9".to_owned()));
        for _ in 0..MAX_RESULTS_IN_FLIGHT {
            assert_eq!(q.release(Urgency::Result), None);
        }
        assert_eq!((q.in_flight, q.results), (0, 0));
        assert_eq!(
            q.admit("ack 3".to_owned(), Urgency::Ack),
            Some("ack 3".to_owned())
        );
    }

    /// Acks and control requests may take every slot: only results are held to fewer.
    #[test]
    fn control_requests_may_fill_every_slot() {
        let mut q = Queue::default();
        for i in 0..MAX_IN_FLIGHT {
            assert!(q.admit(i, Urgency::Control).is_some());
        }
        assert_eq!(q.admit(9, Urgency::Result), None);
        assert_eq!(q.admit(8, Urgency::Ack), None);
        assert_eq!(q.release(Urgency::Control), Some(8));
        assert_eq!(q.release(Urgency::Control), Some(9));
        assert_eq!(q.results, 1);
    }
}
