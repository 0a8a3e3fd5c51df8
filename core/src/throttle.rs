//! Reports of one kind at most once per interval, with a count of those held back: a server
//! that sends 20,000 unreadable events in a burst gets the app one report a second, not 20,000
//! callbacks. The clock comes in as an argument (it may jump backwards: a report is then let
//! through at once, never held until the clock catches up).

use crate::time::{Duration, Instant};

/// Holds back reports of a kind `K` that come within `interval` of the last one of that kind
/// that went out, counting them.
#[derive(Debug)]
pub struct Throttle<K> {
    interval: Duration,
    /// One slot per kind seen; there are few kinds, so a list.
    slots: Vec<Slot<K>>,
}

#[derive(Debug)]
struct Slot<K> {
    kind: K,
    /// When the last report of this kind went out.
    last: Instant,
    /// Reports held back since then, and the latest of them.
    held: u64,
    latest: String,
}

impl<K: Copy + Eq> Throttle<K> {
    /// A throttle that lets one report of each kind through per `interval`.
    pub fn new(interval: Duration) -> Throttle<K> {
        Throttle {
            interval,
            slots: Vec::new(),
        }
    }

    /// A report of `kind` at `now`: the text to send now (with the count of the reports held
    /// back before it, if any), or `None` when it is held back (and counted) until
    /// [`Throttle::due`].
    pub fn report(&mut self, kind: K, message: String, now: Instant) -> Option<String> {
        let interval = self.interval;
        let Some(slot) = self.slots.iter_mut().find(|s| s.kind == kind) else {
            self.slots.push(Slot {
                kind,
                last: now,
                held: 0,
                latest: String::new(),
            });
            return Some(message);
        };
        if !slot.over(interval, now) {
            slot.held += 1;
            slot.latest = message;
            return None;
        }
        let held = std::mem::take(&mut slot.held);
        slot.latest = String::new();
        slot.last = now;
        Some(with_count(message, held))
    }

    /// The held-back reports whose interval ended by `now`, one per kind: the latest, with how
    /// many more came with it.
    pub fn due(&mut self, now: Instant) -> Vec<(K, String)> {
        let interval = self.interval;
        let mut due = Vec::new();
        for slot in &mut self.slots {
            if slot.held > 0 && slot.over(interval, now) {
                let held = std::mem::take(&mut slot.held) - 1;
                due.push((
                    slot.kind,
                    with_count(std::mem::take(&mut slot.latest), held),
                ));
                slot.last = now;
            }
        }
        due
    }

    /// When [`Throttle::due`] has something to give, `now` being the latest time the caller
    /// saw (a slot stamped after it, the clock having gone back, is due at once).
    pub fn next_due(&self, now: Instant) -> Option<Instant> {
        self.slots
            .iter()
            .filter(|s| s.held > 0)
            .map(|s| match s.last > now {
                true => now,
                false => s.last + self.interval,
            })
            .min()
    }
}

impl<K> Slot<K> {
    /// The interval since the last report is over by `now`, or the clock went back.
    fn over(&self, interval: Duration, now: Instant) -> bool {
        now < self.last || now >= self.last + interval
    }
}

/// `message`, saying how many more of its kind were held back with it.
fn with_count(message: String, more: u64) -> String {
    match more {
        0 => message,
        n => format!("{message} (and {n} more like it since the last report)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_ms(1000);

    fn at(ms: u64) -> Instant {
        Instant::from_ms(ms)
    }

    #[test]
    fn a_burst_is_one_report_then_one_with_the_count_a_second_later() {
        let mut t = Throttle::new(SECOND);
        assert_eq!(t.report("a", "e0".into(), at(0)), Some("e0".into()));
        for i in 1..20_000u64 {
            assert_eq!(t.report("a", format!("e{i}"), at(i / 40)), None);
        }
        // Another kind is not held back by the first.
        assert_eq!(t.report("b", "x".into(), at(10)), Some("x".into()));
        assert_eq!(t.next_due(at(499)), Some(at(1000)));
        assert!(t.due(at(999)).is_empty());
        assert_eq!(
            t.due(at(1000)),
            vec![(
                "a",
                "e19999 (and 19998 more like it since the last report)".to_owned()
            )]
        );
        assert_eq!(t.next_due(at(1000)), None);
        // The next one within the second after that report is held again; one alone is said
        // as it is.
        assert_eq!(t.report("a", "late".into(), at(1500)), None);
        assert_eq!(t.due(at(2000)), vec![("a", "late".to_owned())]);
        assert_eq!(
            t.report("a", "again".into(), at(3001)),
            Some("again".into())
        );
    }

    #[test]
    fn a_report_after_the_interval_carries_the_count_of_those_held_back() {
        let mut t = Throttle::new(SECOND);
        t.report(1, "first".into(), at(0));
        t.report(1, "held".into(), at(100));
        t.report(1, "held".into(), at(200));
        assert_eq!(
            t.report(1, "next".into(), at(1000)),
            Some("next (and 2 more like it since the last report)".into())
        );
        assert_eq!(t.next_due(at(1000)), None);
    }

    #[test]
    fn a_clock_that_jumps_backwards_holds_nothing_until_it_catches_up() {
        let mut t = Throttle::new(SECOND);
        let start = 1_000_000_000;
        assert!(t.report(0, "first".into(), at(start)).is_some());
        assert_eq!(t.report(0, "held".into(), at(start + 10)), None);
        // An hour back: the held report is due at once, not in an hour.
        let back = start - 3_600_000;
        assert_eq!(t.next_due(at(back)), Some(at(back)));
        assert_eq!(t.due(at(back)), vec![(0, "held".to_owned())]);
        // And from there on, the interval counts from the new clock.
        assert_eq!(t.report(0, "soon".into(), at(back + 10)), None);
        assert_eq!(t.next_due(at(back + 10)), Some(at(back + 1000)));
        // A report after another jump back goes out at once, with the count.
        assert_eq!(
            t.report(0, "back again".into(), at(back - 5)),
            Some("back again (and 1 more like it since the last report)".into())
        );
    }
}
