//! The caller's stop condition (a deadline, a cancellation flag), asked
//! from grounding's inner loops rarely enough to cost nothing measurable.

use std::cell::Cell;

use crate::GroundError;

/// Units of work between two calls of the stop condition: a unit is one
/// candidate tuple of a join or one binding of an action, tens of
/// nanoseconds each, so the condition is asked every few tenths of a
/// millisecond at most.
pub(crate) const UNITS_PER_POLL: u32 = 4096;

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
        // Once stopped, never asked again: work that runs on to a point
        // where it can stop (a `retain` pass) keeps counting.
        if !self.stopped.get()
            && let Some(condition) = self.condition
            && condition()
        {
            self.stopped.set(true);
        }
        self.stopped.get()
    }

    /// Asks the condition now (between phases of work that count no
    /// units); [`GroundError::Stopped`] once it has said stop.
    pub(crate) fn go_on(&self) -> Result<(), GroundError> {
        if self.tick(UNITS_PER_POLL) {
            Err(GroundError::Stopped)
        } else {
            Ok(())
        }
    }

    /// Whether the condition has said stop.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped.get()
    }
}

/// Frees `partial` (a partly built task: on a large one, millions of
/// small allocations) on a thread of its own, so that a caller whose
/// grounding stopped gets control back at once instead of seconds later
/// (2.2 s on the 98 x 98 ledge level of `benches/puzznic_ledge_level.py`).
/// Freed here when no thread can be started.
pub(crate) fn free_in_background<T: Send + 'static>(partial: T) {
    // On failure the closure, and `partial` with it, is dropped here.
    let _ = std::thread::Builder::new()
        .name("free-partial-task".into())
        .spawn(move || drop(partial));
}

/// Parts (operators, effects) below which an abandoned part is freed
/// inline: a few milliseconds, not worth a thread.
const FREED_INLINE_BELOW: usize = 100_000;

/// A part of the task being built (operators, an operator's effects)
/// that, dropped before [`Self::into_inner`] takes it back (a stop or an
/// error returned early), is freed by [`free_in_background`] when it has
/// [`FREED_INLINE_BELOW`] parts or more, as `parts` counts them.
pub(crate) struct FreedInBackground<T: Send + 'static> {
    value: Option<T>,
    parts: fn(&T) -> usize,
}

impl<T: Send + 'static> FreedInBackground<T> {
    /// Holds `value`, whose size `parts` counts.
    pub(crate) fn new(value: T, parts: fn(&T) -> usize) -> Self {
        FreedInBackground {
            value: Some(value),
            parts,
        }
    }

    /// The value, to keep.
    pub(crate) fn into_inner(mut self) -> T {
        self.value.take().expect("held until taken")
    }
}

impl<T: Send + 'static> std::ops::Deref for FreedInBackground<T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.value.as_ref().expect("held until taken")
    }
}

impl<T: Send + 'static> std::ops::DerefMut for FreedInBackground<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.value.as_mut().expect("held until taken")
    }
}

impl<T: Send + 'static> Drop for FreedInBackground<T> {
    fn drop(&mut self) {
        if let Some(value) = self.value.take()
            && (self.parts)(&value) >= FREED_INLINE_BELOW
        {
            free_in_background(value);
        }
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
        assert!(poll.tick(UNITS_PER_POLL));
        assert_eq!(asked.get(), 2, "never asked again once stopped");
    }

    /// Reports the thread that drops it.
    struct Part(std::sync::mpsc::Sender<std::thread::ThreadId>);

    impl Drop for Part {
        fn drop(&mut self) {
            let _ = self.0.send(std::thread::current().id());
        }
    }

    #[test]
    fn a_large_part_dropped_early_is_freed_on_another_thread() {
        let (sender, dropped_on) = std::sync::mpsc::channel();
        let here = std::thread::current().id();
        let large = |_: &Part| FREED_INLINE_BELOW;
        let kept = FreedInBackground::new(Part(sender.clone()), large).into_inner();
        assert!(dropped_on.try_recv().is_err(), "taken back whole");
        drop(kept);
        assert_eq!(dropped_on.recv().ok(), Some(here));
        drop(FreedInBackground::new(Part(sender.clone()), |_| {
            FREED_INLINE_BELOW - 1
        }));
        assert_eq!(dropped_on.try_recv().ok(), Some(here), "small: inline");
        drop(FreedInBackground::new(Part(sender), large));
        let freer = dropped_on.recv_timeout(std::time::Duration::from_secs(10));
        assert!(matches!(freer, Ok(id) if id != here), "{freer:?}");
    }

    #[test]
    fn never_stops_without_a_condition() {
        let poll = StopPoll::new(None);
        assert!(!(0..3 * UNITS_PER_POLL).any(|_| poll.tick(1)));
        assert!(!poll.stopped());
    }
}
