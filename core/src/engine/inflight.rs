//! The requests on their way, by id. Ids only grow, so the table is a `Vec` in id order: a
//! new request is pushed at the end, one is found by binary search, and a removed one leaves
//! a gap that is swept out once gaps outnumber the requests. So a lookup is O(log n), an
//! insertion and a removal amortized O(1), and the memory within twice the requests on their
//! way, however many calls a burst brings (a `VecMap` scanned the whole table on each).

use super::io::RequestId;

#[derive(Debug)]
pub(super) struct Inflight<V> {
    /// In increasing id order; `None` where a request was removed.
    slots: Vec<(RequestId, Option<V>)>,
    /// The slots that hold a request.
    live: usize,
}

impl<V> Default for Inflight<V> {
    fn default() -> Self {
        Inflight {
            slots: Vec::new(),
            live: 0,
        }
    }
}

impl<V> Inflight<V> {
    /// Adds a request under an id greater than every id before it.
    pub(super) fn insert(&mut self, id: RequestId, req: V) {
        debug_assert!(self.slots.last().is_none_or(|(last, _)| *last < id));
        self.slots.push((id, Some(req)));
        self.live += 1;
    }

    fn index(&self, id: RequestId) -> Option<usize> {
        let i = self.slots.partition_point(|(k, _)| *k < id);
        (self.slots.get(i)?.0 == id).then_some(i)
    }

    /// Request `id`, if it is on its way.
    pub(super) fn get(&self, id: RequestId) -> Option<&V> {
        self.slots[self.index(id)?].1.as_ref()
    }

    /// Takes request `id` out, if it is on its way.
    pub(super) fn remove(&mut self, id: RequestId) -> Option<V> {
        let i = self.index(id)?;
        let req = self.slots[i].1.take()?;
        self.live -= 1;
        if self.slots.len() > 2 * self.live + 16 {
            self.slots.retain(|(_, r)| r.is_some());
        }
        Some(req)
    }

    /// The requests, in the order they were sent.
    pub(super) fn iter(&self) -> impl Iterator<Item = (RequestId, &V)> {
        self.slots
            .iter()
            .filter_map(|(id, r)| r.as_ref().map(|r| (*id, r)))
    }

    /// Keeps the requests for which `keep` says so.
    pub(super) fn retain(&mut self, mut keep: impl FnMut(&V) -> bool) {
        self.slots
            .retain(|(_, r)| r.as_ref().is_some_and(&mut keep));
        self.live = self.slots.len();
    }

    pub(super) fn clear(&mut self) {
        self.slots.clear();
        self.live = 0;
    }
}
