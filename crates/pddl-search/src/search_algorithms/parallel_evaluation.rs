//! Evaluating an expansion's new states on two threads.
//!
//! Eager search evaluates the new successors of each expansion before it
//! admits them to the open list. Where the heuristic's value depends on
//! the state alone ([`Heuristic::fork`]), a helper thread with its own
//! copy of the heuristic takes some of those states while the search's
//! thread takes the others, and the search admits them in the order it
//! generated them. So the search, its plans and its counts are those of
//! one thread; only the wall time shrinks (by up to the share of time
//! spent in the heuristic: A* with h_max on Puzznic spends about 70 %
//! there).
//!
//! Each batch is one expansion's new states. The two threads claim states
//! one at a time from a shared counter, so a slow state does not leave the
//! other thread idle. Between batches the helper spins briefly (the next
//! batch usually follows within tens of microseconds), then sleeps until
//! woken. A batch the helper has not joined by the time the search's
//! thread has claimed every state is closed to it, so the search never
//! waits for the helper to wake up.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Mutex, PoisonError, RwLock};
use std::thread::{self, Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

use pddl_ground::task::Cost;

use crate::heuristics::Heuristic;
use crate::state::{StateLayout, StateView};

/// Evaluations a search makes on its own thread before the helper thread
/// starts, by default ([`crate::SearchOptions::parallel_evaluation`]):
/// small searches, such as most of the default's improvement restarts,
/// never pay for a thread (starting one costs about as much as solving a
/// small task).
pub const EVALUATIONS_BEFORE_HELPER: u64 = 1_000;

/// How long the helper spins for the next batch before it sleeps.
const SPIN: Duration = Duration::from_micros(200);

/// What the two threads share.
struct Shared {
    /// The batch's states, packed one after the other.
    states: RwLock<Vec<u64>>,
    /// States in the batch.
    count: AtomicUsize,
    /// The next state to claim.
    next: AtomicUsize,
    /// Number of the latest batch posted.
    posted: AtomicU64,
    /// Number of the latest batch the helper joined or the search's
    /// thread closed to it.
    joined: AtomicU64,
    /// Number of the latest batch the helper finished.
    finished: AtomicU64,
    /// The helper's values of its latest batch: (index, value).
    helper_values: Mutex<Vec<(usize, Option<Cost>)>>,
    /// The helper is about to sleep or sleeps.
    sleeping: AtomicBool,
    /// The helper is to end.
    stop: AtomicBool,
    /// The helper runs (cleared when it ends, also by a panic).
    alive: AtomicBool,
}

impl Shared {
    fn new() -> Self {
        Shared {
            states: RwLock::new(Vec::new()),
            count: AtomicUsize::new(0),
            next: AtomicUsize::new(0),
            posted: AtomicU64::new(0),
            joined: AtomicU64::new(0),
            finished: AtomicU64::new(0),
            helper_values: Mutex::new(Vec::new()),
            sleeping: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            alive: AtomicBool::new(false),
        }
    }

    /// Evaluates states of the current batch of `count` states until none
    /// is left to claim, pushing (index, value) to `out`.
    fn claim_and_evaluate(
        &self,
        count: usize,
        heuristic: &mut dyn Heuristic,
        layout: &StateLayout,
        fluents: &mut Vec<f64>,
        mut out: impl FnMut(usize, Option<Cost>),
    ) {
        let states = self.states.read().unwrap_or_else(PoisonError::into_inner);
        let words = layout.words();
        loop {
            let i = self.next.fetch_add(1, SeqCst);
            if i >= count {
                return;
            }
            let packed = &states[i * words..(i + 1) * words];
            layout.unpack_fluents(packed, fluents);
            let view = StateView {
                facts: layout.facts(packed),
                fluents,
            };
            out(i, heuristic.evaluate(view, None));
        }
    }
}

/// Runs `search` with a [`ParallelEvaluation`] when there is one to give:
/// `start_after` is `Some`, there is a `fork` (the heuristic's
/// [`Heuristic::fork`]) and the machine has two or more cores. The helper thread starts once
/// the search has made `start_after` evaluations, and has ended when this
/// returns.
pub fn with_parallel_evaluation<R>(
    layout: StateLayout,
    start_after: Option<u64>,
    fork: Option<Box<dyn Heuristic + Send>>,
    search: impl FnOnce(Option<&mut ParallelEvaluation<'_, '_>>) -> R,
) -> R {
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    let (Some(start_after), Some(fork), true) = (start_after, fork, cores >= 2) else {
        return search(None);
    };
    let shared = Shared::new();
    thread::scope(|scope| {
        let mut parallel = ParallelEvaluation {
            scope,
            shared: &shared,
            spare: Some(fork),
            layout,
            helper: None,
            pending: Vec::new(),
            batch: 0,
            evaluations: 0,
            start_after,
            fluents: Vec::new(),
        };
        search(Some(&mut parallel))
        // Dropping `parallel` stops the helper; the scope joins it.
    })
}

/// The search thread's side: collects a batch of states, then evaluates
/// it together with the helper thread (started once the search has made
/// enough evaluations, see [`with_parallel_evaluation`]).
pub struct ParallelEvaluation<'scope, 'env> {
    scope: &'scope Scope<'scope, 'env>,
    shared: &'env Shared,
    /// The helper's heuristic until the helper starts.
    spare: Option<Box<dyn Heuristic + Send>>,
    layout: StateLayout,
    helper: Option<ScopedJoinHandle<'scope, ()>>,
    /// States collected for the next batch.
    pending: Vec<u64>,
    /// Number of the latest batch posted.
    batch: u64,
    evaluations: u64,
    start_after: u64,
    fluents: Vec<f64>,
}

impl ParallelEvaluation<'_, '_> {
    /// Adds a packed state to the next batch.
    pub fn push(&mut self, packed: &[u64]) {
        self.pending.extend_from_slice(packed);
    }

    /// Evaluates the collected states with `heuristic` (and the helper's
    /// copy of it) and empties the batch: `values[i]` is the value of the
    /// `i`-th state pushed (`None` for a dead end).
    pub fn evaluate(&mut self, heuristic: &mut dyn Heuristic, values: &mut Vec<Option<Cost>>) {
        let count = self.pending.len() / self.layout.words().max(1);
        values.clear();
        values.resize(count, None);
        self.evaluations += count as u64;
        if count >= 2 && self.helper.is_none() && self.evaluations > self.start_after {
            self.start_helper();
        }
        let helping = self.helper.is_some() && self.shared.alive.load(SeqCst);
        if count < 2 || !helping {
            self.evaluate_alone(heuristic, values);
            return;
        }
        let shared = self.shared;
        std::mem::swap(
            &mut *shared
                .states
                .write()
                .unwrap_or_else(PoisonError::into_inner),
            &mut self.pending,
        );
        shared.count.store(count, SeqCst);
        shared.next.store(0, SeqCst);
        self.batch += 1;
        let batch = self.batch;
        shared.posted.store(batch, SeqCst);
        if shared.sleeping.load(SeqCst)
            && let Some(helper) = &self.helper
        {
            helper.thread().unpark();
        }
        shared.claim_and_evaluate(count, heuristic, &self.layout, &mut self.fluents, |i, v| {
            values[i] = v
        });
        // Close the batch unless the helper joined it; if it did, it may
        // still be evaluating a state it claimed.
        if shared
            .joined
            .compare_exchange(batch - 1, batch, SeqCst, SeqCst)
            .is_err()
        {
            while shared.finished.load(SeqCst) < batch {
                assert!(
                    shared.alive.load(SeqCst),
                    "the evaluation helper thread ended during a batch"
                );
                std::hint::spin_loop();
            }
            let mut helper_values = shared
                .helper_values
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            for (i, v) in helper_values.drain(..) {
                values[i] = v;
            }
        }
        std::mem::swap(
            &mut *shared
                .states
                .write()
                .unwrap_or_else(PoisonError::into_inner),
            &mut self.pending,
        );
        self.pending.clear();
    }

    /// Evaluates the collected states on this thread.
    fn evaluate_alone(&mut self, heuristic: &mut dyn Heuristic, values: &mut [Option<Cost>]) {
        let words = self.layout.words().max(1);
        for (i, packed) in self.pending.chunks_exact(words).enumerate() {
            self.layout.unpack_fluents(packed, &mut self.fluents);
            let view = StateView {
                facts: self.layout.facts(packed),
                fluents: &self.fluents,
            };
            values[i] = heuristic.evaluate(view, None);
        }
        self.pending.clear();
    }

    fn start_helper(&mut self) {
        let Some(heuristic) = self.spare.take() else {
            return;
        };
        let shared = self.shared;
        let layout = self.layout.clone();
        shared.alive.store(true, SeqCst);
        let spawned = thread::Builder::new()
            .name("evaluation".into())
            .spawn_scoped(self.scope, move || help(shared, heuristic, layout));
        match spawned {
            Ok(handle) => self.helper = Some(handle),
            Err(_) => shared.alive.store(false, SeqCst),
        }
    }
}

impl Drop for ParallelEvaluation<'_, '_> {
    fn drop(&mut self) {
        self.shared.stop.store(true, SeqCst);
        if let Some(helper) = &self.helper {
            helper.thread().unpark();
        }
    }
}

/// Clears the helper's `alive` flag however the helper ends.
struct AliveGuard<'a>(&'a AtomicBool);

impl Drop for AliveGuard<'_> {
    fn drop(&mut self) {
        self.0.store(false, SeqCst);
    }
}

/// The helper thread: joins each batch it sees in time and evaluates the
/// states it claims, until told to stop.
fn help(shared: &Shared, mut heuristic: Box<dyn Heuristic + Send>, layout: StateLayout) {
    let _alive = AliveGuard(&shared.alive);
    let mut fluents = Vec::new();
    let mut values = Vec::new();
    let mut seen = 0;
    while let Some(batch) = next_batch(shared, seen) {
        seen = batch;
        if shared
            .joined
            .compare_exchange(batch - 1, batch, SeqCst, SeqCst)
            .is_err()
        {
            continue; // closed: the search's thread took every state
        }
        let count = shared.count.load(SeqCst);
        values.clear();
        shared.claim_and_evaluate(count, heuristic.as_mut(), &layout, &mut fluents, |i, v| {
            values.push((i, v))
        });
        std::mem::swap(
            &mut *shared
                .helper_values
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
            &mut values,
        );
        shared.finished.store(batch, SeqCst);
    }
}

/// Waits for a batch numbered above `seen`: spins for [`SPIN`], then
/// sleeps until woken. `None` once told to stop.
fn next_batch(shared: &Shared, seen: u64) -> Option<u64> {
    let mut since = Instant::now();
    let mut spins: u32 = 0;
    loop {
        if shared.stop.load(SeqCst) {
            return None;
        }
        let posted = shared.posted.load(SeqCst);
        if posted > seen {
            return Some(posted);
        }
        spins = spins.wrapping_add(1);
        if !spins.is_multiple_of(64) || since.elapsed() < SPIN {
            std::hint::spin_loop();
            continue;
        }
        // Announce the sleep, then look again: a batch posted before the
        // announcement is seen here, one posted after it comes with an
        // unpark (which a later park returns from at once).
        shared.sleeping.store(true, SeqCst);
        if shared.posted.load(SeqCst) == seen && !shared.stop.load(SeqCst) {
            thread::park();
        }
        shared.sleeping.store(false, SeqCst);
        since = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, AtomicUsize};

    use pddl_ground::task::OperatorId;

    use super::*;
    use crate::state::{set_fact, true_facts};
    use crate::testing::TaskBuilder;

    /// A value that depends on the state alone (`None` when fact 0 is
    /// true), computed slowly enough that both threads claim states; its
    /// forks count their evaluations in `by_helper`.
    #[derive(Clone)]
    struct SlowSum {
        by_helper: Arc<AtomicU64>,
        is_fork: bool,
        panics_as_fork: bool,
    }

    impl Heuristic for SlowSum {
        fn evaluate(
            &mut self,
            state: StateView<'_>,
            _: Option<&mut Vec<OperatorId>>,
        ) -> Option<Cost> {
            assert!(!(self.is_fork && self.panics_as_fork), "a broken fork");
            if self.is_fork {
                self.by_helper.fetch_add(1, SeqCst);
            }
            thread::sleep(Duration::from_micros(20));
            expected(state.facts)
        }

        fn fork(&self) -> Option<Box<dyn Heuristic + Send>> {
            Some(Box::new(SlowSum {
                is_fork: true,
                ..self.clone()
            }))
        }
    }

    fn expected(facts: &[u64]) -> Option<Cost> {
        let mut sum = 0;
        for f in true_facts(facts) {
            if f == 0 {
                return None;
            }
            sum += Cost::from(f) * Cost::from(f);
        }
        Some(sum)
    }

    /// `batches` batches of up to 9 distinct states over 12 facts.
    fn states(batches: usize, layout: &StateLayout) -> Vec<Vec<Vec<u64>>> {
        let counter = AtomicUsize::new(0);
        (0..batches)
            .map(|b| {
                (0..b % 10)
                    .map(|_| {
                        let n = counter.fetch_add(7, SeqCst);
                        let mut packed = vec![0; layout.words()];
                        for f in 0..12 {
                            set_fact(&mut packed, f, (n >> f) & 1 == 1);
                        }
                        packed
                    })
                    .collect()
            })
            .collect()
    }

    fn run(
        heuristic: &mut SlowSum,
        start_after: u64,
    ) -> (Vec<Vec<Option<Cost>>>, Vec<Vec<Vec<u64>>>) {
        let task = TaskBuilder::new(12).build(&[], &[1]);
        let layout = StateLayout::new(&task);
        let batches = states(300, &layout);
        let fork = heuristic.fork();
        let values = with_parallel_evaluation(layout, Some(start_after), fork, |parallel| {
            let parallel = parallel.expect("a helper on two cores");
            let mut out = Vec::new();
            for batch in &batches {
                for packed in batch {
                    parallel.push(packed);
                }
                let mut values = Vec::new();
                parallel.evaluate(heuristic, &mut values);
                out.push(values);
            }
            out
        });
        (values, batches)
    }

    #[test]
    fn both_threads_evaluate_and_values_come_back_in_order() {
        if thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
            eprintln!("skipped: one core, so no helper thread");
            return;
        }
        let by_helper = Arc::new(AtomicU64::new(0));
        let mut heuristic = SlowSum {
            by_helper: by_helper.clone(),
            is_fork: false,
            panics_as_fork: false,
        };
        let (values, batches) = run(&mut heuristic, 100);
        for (values, batch) in values.iter().zip(&batches) {
            let wanted: Vec<_> = batch.iter().map(|s| expected(s)).collect();
            assert_eq!(values, &wanted);
        }
        assert!(values.iter().flatten().any(Option::is_none));
        assert!(by_helper.load(SeqCst) > 0, "the helper evaluated nothing");
    }

    #[test]
    fn a_helper_that_panics_ends_the_search_instead_of_hanging() {
        if thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
            eprintln!("skipped: one core, so no helper thread");
            return;
        }
        let mut heuristic = SlowSum {
            by_helper: Arc::new(AtomicU64::new(0)),
            is_fork: false,
            panics_as_fork: true,
        };
        let outcome =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&mut heuristic, 0)));
        assert!(outcome.is_err());
    }
}
