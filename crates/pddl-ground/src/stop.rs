//! The caller's stop condition (a deadline, a cancellation flag), asked
//! from grounding's inner loops rarely enough to cost nothing measurable.

use std::cell::Cell;

/// Units of work between two calls of the stop condition: a unit is one
/// candidate tuple of a join or one binding of an action, tens of
/// nanoseconds each, so the condition is asked every few tenths of a
/// millisecond at most.
const UNITS_PER_POLL: u32 = 4096;

/// Counts units of work and asks the caller's condition every
/// [`UNITS_PER_POLL`] of them; once it says stop, stays stopped.
pub(crate) struct StopPoll<'s> {
    condition: Option<&'s dyn Fn() -> bool>,
    units_left: Cell<u32>,
    stopped: Cell<bool>,
}

impl<'s> StopPoll<'s> {
    /// Polls `condition`; `None` never stops.
    pub(crate) fn new(condition: Option<&'s dyn Fn() -> bool>) -> Self {
        StopPoll {
            condition,
            units_left: Cell::new(UNITS_PER_POLL),
            stopped: Cell::new(false),
        }
    }

    /// Counts `units` of work done; true once the condition has said stop.
    #[inline]
    pub(crate) fn tick(&self, units: u32) -> bool {
        let left = self.units_left.get();
        if left > units {
            self.units_left.set(left - units);
            return self.stopped.get();
        }
        self.units_left.set(UNITS_PER_POLL);
        if let Some(condition) = self.condition
            && condition()
        {
            self.stopped.set(true);
        }
        self.stopped.get()
    }

    /// Asks the condition now (between phases of work that count no
    /// units); true once it has said stop.
    pub(crate) fn poll_now(&self) -> bool {
        self.tick(UNITS_PER_POLL)
    }

    /// Whether the condition has said stop.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asks_the_condition_once_per_interval_and_stays_stopped() {
        let asked = Cell::new(0u32);
        let condition = || {
            asked.set(asked.get() + 1);
            asked.get() >= 2
        };
        let poll = StopPoll::new(Some(&condition));
        for _ in 1..UNITS_PER_POLL {
            assert!(!poll.tick(1));
        }
        assert_eq!(asked.get(), 0);
        assert!(!poll.tick(1), "the first answer is go on");
        assert_eq!(asked.get(), 1);
        assert!(
            poll.tick(UNITS_PER_POLL),
            "a heavy unit reaches the next poll"
        );
        assert_eq!(asked.get(), 2);
        assert!(poll.tick(1) && poll.stopped());
        assert_eq!(asked.get(), 2, "not asked again before the interval");
    }

    #[test]
    fn never_stops_without_a_condition() {
        let poll = StopPoll::new(None);
        assert!(!(0..3 * UNITS_PER_POLL).any(|_| poll.tick(1)));
        assert!(!poll.stopped());
    }
}
