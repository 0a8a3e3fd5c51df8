//! The engine's requests, sent through one small queue per page: at most [`MAX_IN_FLIGHT`]
//! at a time, so the page's own requests are not starved of the browser's few connections
//! per host (6 over HTTP/1.1), and by urgency: registration and pings first (the registration
//! lapses by its TTL if they wait, and every call with it), then results, then acks, then tool
//! lists, pending-call reads and leaving. One slot is kept for the registration and pings:
//! acks, control requests and results never hold all of them, so a burst of calls never makes
//! a ping wait. Results go before acks because a result's call has run its handler: in a
//! burst, acking more calls while their results wait only ends in results past their deadline
//! (the model told "failed" of a call whose side effect happened), whereas a call not acked
//! yet has not run. Results hold at most [`MAX_RESULTS_IN_FLIGHT`]: one more slot is left for
//! acks and control requests, so results the server accepts and never answers (held for
//! `requestTimeoutMs`) never keep an ack waiting; those wait only for each other. A request that waited is sent only if the
//! engine still wants it ([`Engine::wants`](crate::engine::Engine::wants)): an ack or result of
//! a registration that lapsed meanwhile, or an ack whose call's deadline passed, is answered
//! as a network error without being sent. A keep-alive request (the leave on page
//! hide) never waits: the page is going. A request without a whole answer within
//! `requestTimeoutMs` is aborted (`net::send`), so a slot is never held for good.

use super::net;
use crate::engine::{HttpRequest, Input, Urgency};
use crate::js::JsRefCell;
use std::collections::VecDeque;

/// The most requests of the SDK one page has on the network at once (streams not counted).
pub(crate) const MAX_IN_FLIGHT: usize = 4;
/// The most requests other than registering and pinging: one slot is kept for those.
pub(crate) const MAX_CALLS_IN_FLIGHT: usize = MAX_IN_FLIGHT - 1;
/// The most results among them: another slot is kept for acks and control requests.
pub(crate) const MAX_RESULTS_IN_FLIGHT: usize = MAX_CALLS_IN_FLIGHT - 1;

/// The order in which waiting requests take a free slot (see the module docs).
const TURNS: [Urgency; 4] = [
    Urgency::Registration,
    Urgency::Result,
    Urgency::Ack,
    Urgency::Control,
];

/// The requests waiting for a slot, by urgency, and how many are out (and how many of those
/// are results, and registration requests).
struct Queue<T> {
    in_flight: usize,
    results: usize,
    registration: usize,
    waiting: [VecDeque<T>; 4],
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
            registration: 0,
            waiting: [
                VecDeque::new(),
                VecDeque::new(),
                VecDeque::new(),
                VecDeque::new(),
            ],
        }
    }

    /// Whether a request of `urgency` may take a free slot now.
    fn fits(&self, urgency: Urgency) -> bool {
        let others = self.in_flight - self.registration;
        self.in_flight < MAX_IN_FLIGHT
            && match urgency {
                Urgency::Registration => true,
                Urgency::Ack | Urgency::Control => others < MAX_CALLS_IN_FLIGHT,
                Urgency::Result => {
                    others < MAX_CALLS_IN_FLIGHT && self.results < MAX_RESULTS_IN_FLIGHT
                }
            }
    }

    fn take_slot(&mut self, urgency: Urgency) {
        self.in_flight += 1;
        self.results += usize::from(urgency == Urgency::Result);
        self.registration += usize::from(urgency == Urgency::Registration);
    }

    /// A request of `urgency` came back (or was not sent after all): its slot is free.
    fn give_back(&mut self, urgency: Urgency) {
        self.in_flight -= 1;
        self.results -= usize::from(urgency == Urgency::Result);
        self.registration -= usize::from(urgency == Urgency::Registration);
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

    /// The most urgent waiting request that fits (oldest first), with its slot taken.
    fn next(&mut self) -> Option<(T, Urgency)> {
        for kind in TURNS {
            if !self.fits(kind) {
                continue;
            }
            if let Some(next) = self.waiting[kind as usize].pop_front() {
                self.take_slot(kind);
                return Some((next, kind));
            }
        }
        None
    }

    /// A request of `urgency` came back: the most urgent waiting one that fits takes its slot.
    #[cfg(test)]
    fn release(&mut self, urgency: Urgency) -> Option<T> {
        self.give_back(urgency);
        self.next().map(|(item, _)| item)
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
    /// Whether the engine still wants the request, asked when it waited for a slot.
    pub(super) wanted: Box<dyn Fn() -> bool>,
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
/// and is still wanted takes it; one the engine gave up meanwhile is dropped unsent.
fn release(urgency: Urgency) {
    QUEUE.with(|q| q.borrow_mut().give_back(urgency));
    loop {
        // No borrow of the queue while the engine is asked.
        let Some((job, kind)) = QUEUE.with(|q| q.borrow_mut().next()) else {
            return;
        };
        if (job.wanted)() {
            return crate::js::promise::spawn(Box::pin(transmit(job, true)));
        }
        QUEUE.with(|q| q.borrow_mut().give_back(kind));
        // Answered as not sent: a call whose deadline passed ends by it (the engine ignores
        // the answer of a request it forgot).
        let request = job.req.id;
        (job.done)(Input::NetworkError {
            request,
            message: "not sent: given up while it waited for a connection".to_owned(),
        });
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
        ..
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
    use super::{Queue, Urgency, MAX_CALLS_IN_FLIGHT, MAX_IN_FLIGHT, MAX_RESULTS_IN_FLIGHT};

    /// At most MAX_IN_FLIGHT out, at most MAX_RESULTS_IN_FLIGHT of them results, each kind
    /// oldest first; a result takes a slot free for it before an ack.
    #[test]
    fn results_within_their_cap_go_before_acks_and_the_caps_hold() {
        let mut q = Queue::default();
        for i in 0..MAX_RESULTS_IN_FLIGHT {
            assert_eq!(
                q.admit(format!("result {i}"), Urgency::Result),
                Some(format!("result {i}"))
            );
        }
        // The next slot is not a result's.
        assert_eq!(q.admit("result 8".to_owned(), Urgency::Result), None);
        assert_eq!(q.admit("result 9".to_owned(), Urgency::Result), None);
        assert_eq!(
            q.admit("ack 0".to_owned(), Urgency::Ack),
            Some("ack 0".to_owned())
        );
        assert_eq!(q.in_flight, MAX_CALLS_IN_FLIGHT);
        assert_eq!(q.admit("tools".to_owned(), Urgency::Control), None);
        assert_eq!(q.admit("ack 1".to_owned(), Urgency::Ack), None);
        assert_eq!(q.admit("ack 2".to_owned(), Urgency::Ack), None);
        // Acks and the tool list go out through the one slot they have while results hang.
        assert_eq!(q.release(Urgency::Ack), Some("ack 1".to_owned()));
        assert_eq!(q.release(Urgency::Ack), Some("ack 2".to_owned()));
        assert_eq!(q.release(Urgency::Ack), Some("tools".to_owned()));
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
        // Every slot but the registration's busy, an ack and a result waiting: a result slot
        // that comes free is the result's, whichever request freed it.
        assert!(q.admit("ack 4".to_owned(), Urgency::Ack).is_some());
        assert!(q.admit("ack 5".to_owned(), Urgency::Ack).is_some());
        assert_eq!(q.admit("ack 6".to_owned(), Urgency::Ack), None);
        assert_eq!(q.admit("result 10".to_owned(), Urgency::Result), None);
        assert_eq!(q.release(Urgency::Ack), Some("result 10".to_owned()));
        assert_eq!(q.release(Urgency::Ack), Some("ack 6".to_owned()));
    }

    /// Issue 39: a burst of acks (and results that hang) never makes a ping or a register
    /// wait: one slot is theirs, and they go before every waiting ack.
    #[test]
    fn pings_never_wait_behind_acks_or_results() {
        let mut q = Queue::default();
        for i in 0..MAX_IN_FLIGHT {
            let out = q.admit(i, Urgency::Ack);
            assert_eq!(out.is_some(), i < MAX_CALLS_IN_FLIGHT, "{i}");
        }
        for i in 10..20 {
            assert_eq!(q.admit(i, Urgency::Ack), None);
        }
        assert_eq!(q.admit(100, Urgency::Result), None);
        assert_eq!(
            q.admit(50, Urgency::Registration),
            Some(50),
            "the kept slot"
        );
        assert_eq!(q.admit(51, Urgency::Registration), None);
        // The next slot that comes free goes to the waiting ping, not to the older acks.
        assert_eq!(q.release(Urgency::Ack), Some(51));
        assert_eq!(q.in_flight, MAX_IN_FLIGHT);
        // Two pings out, one in the kept slot: the other's slot, free again, goes to the
        // others, the result first; then acks.
        assert_eq!(q.release(Urgency::Registration), Some(100));
        assert_eq!(q.registration, 1);
        assert_eq!(q.release(Urgency::Ack), Some(3));
        // The last ping back: its kept slot stays free of the others.
        assert_eq!(q.release(Urgency::Registration), None);
        assert_eq!((q.registration, q.in_flight), (0, MAX_CALLS_IN_FLIGHT));
    }

    /// Acks and control requests may take every slot but the registration's: only results are
    /// held to fewer.
    #[test]
    fn control_requests_may_fill_every_slot_but_the_registrations() {
        let mut q = Queue::default();
        for i in 0..MAX_CALLS_IN_FLIGHT {
            assert!(q.admit(i, Urgency::Control).is_some());
        }
        assert_eq!(q.admit(7, Urgency::Control), None);
        assert_eq!(q.admit(9, Urgency::Result), None);
        assert_eq!(q.admit(8, Urgency::Ack), None);
        assert_eq!(q.release(Urgency::Control), Some(9));
        assert_eq!(q.release(Urgency::Control), Some(8));
        assert_eq!(q.release(Urgency::Control), Some(7));
        assert_eq!(q.results, 1);
    }
}
